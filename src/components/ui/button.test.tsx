// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import {
  BUTTON_COLORS,
  BUTTON_DEFAULT_HEIGHT,
  BUTTON_DEFAULT_WIDTH,
  BUTTON_TEXT_COLORS,
  Button,
  ButtonLink,
} from './button';

describe('Button', () => {
  // SPEC §9 says 42 px tall; 44 is the smallest tap target (docs/decisions/036-dark-mode-sharing-touch.md).
  it('renders a type="button" of 150×44 px in yellow by default', () => {
    render(<Button>保存する</Button>);
    const button = screen.getByRole('button', { name: '保存する' });
    expect(button).toHaveAttribute('type', 'button');
    expect(BUTTON_DEFAULT_WIDTH).toBe(150);
    expect(BUTTON_DEFAULT_HEIGHT).toBe(44);
    expect(button).toHaveStyle({ width: '150px', height: '44px' });
    expect(button).toHaveStyle({ backgroundColor: '#ebff00', color: '#111111' });
  });

  it('maps colour names to the fixed values of SPEC §9', () => {
    expect(BUTTON_COLORS).toEqual({
      yellow: '#ebff00',
      black: '#111111',
      white: '#ffffff',
      gray: '#e2e2e0',
    });
    render(
      <>
        <Button color="black">黒</Button>
        <Button color="white">白</Button>
        <Button color="gray">灰</Button>
      </>,
    );
    expect(screen.getByRole('button', { name: '黒' })).toHaveStyle({
      backgroundColor: '#111111',
      color: '#ffffff',
    });
    expect(screen.getByRole('button', { name: '白' })).toHaveStyle({
      backgroundColor: '#ffffff',
      color: '#111111',
    });
    expect(screen.getByRole('button', { name: '灰' })).toHaveStyle({
      backgroundColor: '#e2e2e0',
      color: '#111111',
    });
  });

  it('pairs every colour with a text colour of at least 4.5:1 contrast', () => {
    const luminance = (hex: string) => {
      const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
      const [r = 0, g = 0, b = 0] = channels.map((c) =>
        c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
      );
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const name of Object.keys(BUTTON_COLORS) as (keyof typeof BUTTON_COLORS)[]) {
      const [light, dark] = [luminance(BUTTON_COLORS[name]), luminance(BUTTON_TEXT_COLORS[name])]
        .sort((a, b) => a - b)
        .reverse() as [number, number];
      expect((light + 0.05) / (dark + 0.05), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('accepts width and height overrides (numbers as px, strings as given) and fullWidth', () => {
    render(
      <>
        <Button width={270} height={48}>
          ポータル
        </Button>
        <Button width="20rem">相対</Button>
        <Button fullWidth width={270}>
          全幅
        </Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'ポータル' })).toHaveStyle({
      width: '270px',
      height: '48px',
    });
    expect(screen.getByRole('button', { name: '相対' })).toHaveStyle({ width: '20rem' });
    expect(screen.getByRole('button', { name: '全幅' })).toHaveStyle({ width: '100%' });
  });

  it('lets the type be overridden and forwards other attributes, ref and handlers', async () => {
    const onClick = vi.fn();
    const ref = createRef<HTMLButtonElement>();
    render(
      <form aria-label="フォーム" onSubmit={(event) => event.preventDefault()}>
        <Button
          ref={ref}
          type="submit"
          name="intent"
          value="save"
          aria-describedby="hint"
          onClick={onClick}
        >
          送信
        </Button>
      </form>,
    );
    const button = screen.getByRole('button', { name: '送信' });
    expect(button).toHaveAttribute('type', 'submit');
    expect(button).toHaveAttribute('name', 'intent');
    expect(button).toHaveAttribute('aria-describedby', 'hint');
    expect(ref.current).toBe(button);
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('does not fire clicks when disabled', async () => {
    const onClick = vi.fn();
    render(
      <Button disabled onClick={onClick}>
        無効
      </Button>,
    );
    const button = screen.getByRole('button', { name: '無効' });
    expect(button).toBeDisabled();
    expect(button).not.toHaveAttribute('aria-busy');
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('shows a spinner, marks itself busy and disabled, and keeps its label while loading', async () => {
    const onClick = vi.fn();
    const { rerender } = render(
      <Button loading onClick={onClick}>
        確認する
      </Button>,
    );
    const button = screen.getByRole('button', { name: '確認する' });
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toBeDisabled();
    expect(button.querySelector('[aria-hidden="true"]')).not.toBeNull();
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();

    rerender(<Button onClick={onClick}>確認する</Button>);
    expect(button).not.toHaveAttribute('aria-busy');
    expect(button).toBeEnabled();
    expect(button.querySelector('[aria-hidden="true"]')).toBeNull();
  });
});

describe('ButtonLink', () => {
  it('renders a link with the button look', () => {
    render(
      <ButtonLink href="/service-plans" color="black" width={270}>
        プランを見る
      </ButtonLink>,
    );
    const link = screen.getByRole('link', { name: 'プランを見る' });
    expect(link).toHaveAttribute('href', '/service-plans');
    expect(link).toHaveStyle({
      width: '270px',
      height: '44px',
      backgroundColor: '#111111',
      color: '#ffffff',
    });
  });
});
