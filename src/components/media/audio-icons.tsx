/** The player's pictograms: decorative (the buttons carry their names), drawn in currentColor. */

type IconProps = { className?: string };

const svgProps = {
  viewBox: '0 0 24 24',
  'aria-hidden': true,
  focusable: false,
} as const;

export function PlayIcon({ className }: IconProps) {
  return (
    <svg {...svgProps} className={className}>
      <path
        d="M8 5.5v13a.5.5 0 0 0 .76.43l10.5-6.5a.5.5 0 0 0 0-.86L8.76 5.07A.5.5 0 0 0 8 5.5Z"
        fill="currentColor"
      />
    </svg>
  );
}

export function PauseIcon({ className }: IconProps) {
  return (
    <svg {...svgProps} className={className}>
      <rect x="6.5" y="5" width="4" height="14" rx="1" fill="currentColor" />
      <rect x="13.5" y="5" width="4" height="14" rx="1" fill="currentColor" />
    </svg>
  );
}

/** A circular arrow (back or forward) with the number of seconds inside. */
export function SkipIcon({
  seconds,
  direction,
  className,
}: IconProps & { seconds: number; direction: 'back' | 'forward' }) {
  const flip = direction === 'forward' ? 'matrix(-1 0 0 1 24 0)' : undefined;
  return (
    <svg {...svgProps} className={className}>
      <g transform={flip} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
        <path d="M5.2 8.5A8 8 0 1 1 4 12.5" />
        <path d="M4.6 4.2v4.6h4.6" strokeLinejoin="round" />
      </g>
      <text
        x="12"
        y="15.6"
        textAnchor="middle"
        fontSize="7.5"
        fontWeight="700"
        fill="currentColor"
        fontFamily="system-ui, sans-serif"
      >
        {seconds}
      </text>
    </svg>
  );
}

export function VolumeIcon({ muted, className }: IconProps & { muted: boolean }) {
  return (
    <svg {...svgProps} className={className}>
      <path
        d="M4 9.5h3.5L12 5.5v13l-4.5-4H4a.5.5 0 0 1-.5-.5v-4a.5.5 0 0 1 .5-.5Z"
        fill="currentColor"
      />
      {muted ? (
        <path
          d="m15.5 9.5 5 5m0-5-5 5"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
        />
      ) : (
        <path
          d="M15 9a4 4 0 0 1 0 6m2.5-8.5a7.5 7.5 0 0 1 0 11"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
        />
      )}
    </svg>
  );
}
