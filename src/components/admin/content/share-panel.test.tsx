// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SEO_FIELD } from '@/lib/cms/model';
import { SharePanel } from './share-panel.client';

vi.mock('@/components/admin/media/media-picker.client', () => ({
  MediaPicker: (props: { id: string; labelledBy: string }) => (
    <button type="button" id={props.id} aria-labelledby={props.labelledBy}>
      選ぶ
    </button>
  ),
}));

function Harness({ initial }: { initial: Record<string, unknown> }) {
  const [values, setValues] = useState(initial);
  return (
    <SharePanel
      field={SEO_FIELD}
      values={values}
      onChange={(seo) => setValues((v) => ({ ...v, seo }))}
      references={{}}
      self={{ endpoint: 'posts', id: 'p1' }}
      site={{ name: 'AXIS', url: 'https://axis.example.jp' }}
      path="/posts/p1"
    />
  );
}

const preview = (name: RegExp) => screen.getByRole('figure', { name });
const textOf = (figure: HTMLElement, part: 'title' | 'description') =>
  figure.querySelector(`[data-preview="${part}"]`)?.textContent;

describe('the search and sharing panel', () => {
  it('labels each preview and shows the item’s own title and description by default', () => {
    render(
      <Harness
        initial={{ title: '木造建築の未来', description: '森林資源から考える。', seo: null }}
      />,
    );
    expect(screen.getByRole('region', { name: '検索と共有' })).toBeInTheDocument();
    for (const name of [/Google/, /X/, /Facebook/, /LINE/]) expect(preview(name)).toBeVisible();
    expect(textOf(preview(/Google/), 'title')).toBe('木造建築の未来 | AXIS');
    expect(textOf(preview(/Google/), 'description')).toBe('森林資源から考える。');
    expect(within(preview(/Google/)).getByText(/axis\.example\.jp › posts › p1/)).toBeVisible();
  });

  it('follows the meta title and description as they are typed, cut by width', () => {
    render(<Harness initial={{ title: '題', seo: null }} />);
    fireEvent.change(screen.getByRole('textbox', { name: /メタタイトル/ }), {
      target: { value: '建'.repeat(40) },
    });
    const google = textOf(preview(/Google/), 'title')!;
    expect(google).toBe(`${'建'.repeat(28)} ...`);
    expect(textOf(preview(/LINE/), 'title')).toBe(`${'建'.repeat(23)}…`);
    fireEvent.change(screen.getByRole('textbox', { name: /メタディスクリプション/ }), {
      target: { value: '検索結果の説明' },
    });
    expect(textOf(preview(/Facebook/), 'description')).toBe('検索結果の説明');
  });

  it('falls back to the text above the members’ divider, never below it', () => {
    render(
      <Harness
        initial={{
          title: '題',
          body: '<p>導入の段落</p><hr data-members-divider=""><p>会員だけの本文</p>',
        }}
      />,
    );
    expect(textOf(preview(/Google/), 'description')).toBe('導入の段落');
    expect(screen.queryByText(/会員だけの本文/)).toBeNull();
  });

  it('says a noindex item stays out of search results', () => {
    render(<Harness initial={{ title: '題' }} />);
    fireEvent.click(screen.getByRole('checkbox', { name: /noindex/ }));
    expect(within(preview(/Google/)).getByText(/検索結果に表示されません/)).toBeVisible();
  });
});
