import { ResponsiveImage } from '@/components/content/responsive-image';

/** A partner's logo at its own proportions, in a box of `className` (the header's, the form's). */
export function PartnerLogo({
  logo,
  alt,
  sizes,
  className,
}: {
  logo: { url: string; width?: number; height?: number };
  alt: string;
  sizes: string;
  className?: string;
}) {
  return (
    <span className={className}>
      <ResponsiveImage
        src={logo.url}
        alt={alt}
        width={logo.width}
        height={logo.height}
        sizes={sizes}
      />
    </span>
  );
}
