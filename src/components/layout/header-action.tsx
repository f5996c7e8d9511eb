import type { ReactNode } from 'react';
import action from './header-action.module.css';

/** The look of a header action (search, sign-in, menu): a 24-unit icon over its caption. */
export function HeaderActionLabel({
  icon,
  caption,
  iconClassName,
  captionClassName,
}: {
  /** The icon's shapes, drawn in a 0 0 24 24 box. */
  icon: ReactNode;
  caption: string;
  iconClassName?: string;
  captionClassName?: string;
}) {
  return (
    <>
      <svg
        className={iconClassName ? `${action.icon} ${iconClassName}` : action.icon}
        viewBox="0 0 24 24"
        aria-hidden="true"
      >
        {icon}
      </svg>
      <span className={captionClassName ? `${action.caption} ${captionClassName}` : action.caption}>
        {caption}
      </span>
    </>
  );
}
