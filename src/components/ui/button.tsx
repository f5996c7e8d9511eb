import { Link } from '@/components/layout/site-link';
import { type ComponentProps, type CSSProperties, type ReactNode } from 'react';
import styles from './button.module.css';
import { InlineSpinner } from './spinner';

/** SPEC §9: colour names map to fixed values. */
export const BUTTON_COLORS = {
  yellow: '#ebff00',
  black: '#111111',
  white: '#ffffff',
  gray: '#e2e2e0',
} as const;

export type ButtonColor = keyof typeof BUTTON_COLORS;

/** Text colour paired with each background; every pair meets WCAG AA (4.5:1) or better. */
export const BUTTON_TEXT_COLORS = {
  yellow: '#111111',
  black: '#ffffff',
  white: '#111111',
  gray: '#111111',
} as const satisfies Record<ButtonColor, string>;

/** A white button needs a visible edge on a white page; the others are bordered in their fill. */
const BUTTON_BORDER_COLORS = {
  yellow: BUTTON_COLORS.yellow,
  black: BUTTON_COLORS.black,
  white: '#111111',
  gray: BUTTON_COLORS.gray,
} as const satisfies Record<ButtonColor, string>;

/**
 * SPEC §9 button defaults, in px; the height is 44 instead of its 42, the smallest tap target
 * (docs/decisions/036-dark-mode-sharing-touch.md).
 */
export const BUTTON_DEFAULT_WIDTH = 150;
export const BUTTON_DEFAULT_HEIGHT = 44;

type ButtonLookProps = {
  color?: ButtonColor;
  /** Number = px. Ignored when `fullWidth` is set. */
  width?: number | string;
  /** Number = px. */
  height?: number | string;
  fullWidth?: boolean;
};

function lookStyle(
  {
    color = 'yellow',
    width = BUTTON_DEFAULT_WIDTH,
    height = BUTTON_DEFAULT_HEIGHT,
    fullWidth,
  }: ButtonLookProps,
  style: CSSProperties | undefined,
): CSSProperties {
  return {
    width: fullWidth ? '100%' : width,
    height,
    backgroundColor: BUTTON_COLORS[color],
    color: BUTTON_TEXT_COLORS[color],
    borderColor: BUTTON_BORDER_COLORS[color],
    ...style,
  };
}

function lookClassName(fullWidth: boolean | undefined, className: string | undefined): string {
  return [styles.button, fullWidth ? styles.fullWidth : undefined, className]
    .filter(Boolean)
    .join(' ');
}

export type ButtonProps = Omit<ComponentProps<'button'>, 'color'> &
  ButtonLookProps & {
    /** Shows a spinner, disables the button and marks it busy; the label stays for screen readers. */
    loading?: boolean;
    children?: ReactNode;
  };

/**
 * A form's submit button sized to its label, 44 px tall: the staff and partner screens' forms,
 * where it stands beside fields or in a row of actions. Black unless told otherwise.
 */
export function SubmitButton({
  color = 'black',
  ...props
}: Omit<ButtonProps, 'type' | 'width' | 'height'>) {
  return <Button type="submit" color={color} width="auto" height={44} {...props} />;
}

export function Button({
  color,
  width,
  height,
  fullWidth,
  loading = false,
  disabled,
  type = 'button',
  className,
  style,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={lookClassName(fullWidth, className)}
      style={lookStyle({ color, width, height, fullWidth }, style)}
    >
      {loading ? <InlineSpinner className={styles.spinner} /> : null}
      <span className={loading ? `${styles.label} ${styles.labelBusy}` : styles.label}>
        {children}
      </span>
    </button>
  );
}

export type ButtonLinkProps = Omit<ComponentProps<typeof Link>, 'color'> & ButtonLookProps;

/** Navigation that looks like a Button (a link, so it keeps link semantics and middle-click). */
export function ButtonLink({
  color,
  width,
  height,
  fullWidth,
  className,
  style,
  children,
  ...rest
}: ButtonLinkProps) {
  return (
    <Link
      {...rest}
      className={lookClassName(fullWidth, className)}
      style={lookStyle({ color, width, height, fullWidth }, style)}
    >
      <span className={styles.label}>{children}</span>
    </Link>
  );
}
