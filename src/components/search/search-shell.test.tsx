// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SearchShell } from './search-shell.client';

const push = vi.fn();
vi.mock('next/navigation', () => ({ useRouter: () => ({ push }) }));

function renderShell() {
  return render(
    <SearchShell
      form={
        <form method="get" action="/search" role="search">
          <label htmlFor="q">キーワード</label>
          <input id="q" name="q" />
          <input type="hidden" name="type" value="posts" />
          <button type="submit">検索</button>
        </form>
      }
    >
      <a href="/search?q=%E6%A8%A1%E5%9E%8B&type=jobs">求人</a>
      <a href="/search?q=%E6%A8%A1%E5%9E%8B&page=2">2 ページ目</a>
      {/* A plain anchor stands for any link to another page (next/link renders one). */}
      {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
      <a href="/posts/abc">記事へ</a>
      <a href="https://example.com/search?q=x">外部</a>
      <a href="/search?q=x" target="_blank">
        新しいタブ
      </a>
    </SearchShell>,
  );
}

beforeEach(() => push.mockReset());

describe('SearchShell', () => {
  it('turns the GET form into a client navigation with the query in the URL', async () => {
    renderShell();
    await userEvent.type(screen.getByLabelText('キーワード'), '模型 建築');
    await userEvent.click(screen.getByRole('button', { name: '検索' }));
    expect(push).toHaveBeenCalledWith('/search?q=%E6%A8%A1%E5%9E%8B+%E5%BB%BA%E7%AF%89&type=posts');
  });

  it('leaves out an empty query', async () => {
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: '検索' }));
    expect(push).toHaveBeenCalledWith('/search?type=posts');
  });

  it('navigates same-page search links in a transition, and leaves every other link alone', async () => {
    renderShell();
    await userEvent.click(screen.getByRole('link', { name: '求人' }));
    expect(push).toHaveBeenLastCalledWith('/search?q=%E6%A8%A1%E5%9E%8B&type=jobs');
    await userEvent.click(screen.getByRole('link', { name: '2 ページ目' }));
    expect(push).toHaveBeenLastCalledWith('/search?q=%E6%A8%A1%E5%9E%8B&page=2');
    expect(push).toHaveBeenCalledTimes(2);

    // What the shell left to the browser, seen after it (jsdom cannot follow links itself).
    const leftToBrowser: boolean[] = [];
    const record = (event: MouseEvent) => {
      leftToBrowser.push(!event.defaultPrevented);
      event.preventDefault();
    };
    document.addEventListener('click', record);
    for (const name of ['記事へ', '外部', '新しいタブ']) {
      fireEvent.click(screen.getByRole('link', { name }));
    }
    fireEvent.click(screen.getByRole('link', { name: '求人' }), { ctrlKey: true });
    document.removeEventListener('click', record);
    expect(leftToBrowser).toEqual([true, true, true, true]);
    expect(push).toHaveBeenCalledTimes(2);
  });
});
