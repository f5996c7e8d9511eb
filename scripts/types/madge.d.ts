// The part of madge's API that scripts/check-imports.ts uses (the package ships no types).
declare module 'madge' {
  type MadgeResult = {
    obj(): Record<string, string[]>;
    circular(): string[][];
  };
  type MadgeConfig = {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string;
    excludeRegExp?: RegExp[];
  };
  export default function madge(
    paths: string | string[],
    config?: MadgeConfig,
  ): Promise<MadgeResult>;
}
