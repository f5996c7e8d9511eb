import { describe, expect, it } from 'vitest';
import { readsOfAnswer } from '@/server/services/cms/reads';
import { inRequest } from '@/server/platform/http/request-context';
import {
  noteAudience,
  noteContentReads,
  noteMeter,
  notePersonal,
  openRenderRecord,
} from './render-record';

const readOf = (id: string) => () => readsOfAnswer('posts', id, new URLSearchParams(), { id });

describe('the record of a render', () => {
  it('takes the notes of its own request only, however deep in it they are made', async () => {
    const ours = { requestId: 'a' };
    const other = { requestId: 'b' };
    const record = openRenderRecord(ours);
    const otherRecord = openRenderRecord(other);
    await Promise.all([
      inRequest(ours, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        noteAudience('paid');
        noteContentReads(readOf('a'));
      }),
      inRequest(other, async () => {
        await Promise.resolve();
        noteAudience('anonymous');
        noteContentReads(readOf('b'));
      }),
    ]);
    expect(record).toMatchObject({ audience: 'paid', personal: false });
    expect([...record.reads.items.keys()]).toEqual(['posts/a']);
    expect(otherRecord).toMatchObject({ audience: 'anonymous', personal: false });
    expect([...otherRecord.reads.items.keys()]).toEqual(['posts/b']);
  });

  it('is personal when it read the user, showed two audiences, or no audience’s page', () => {
    const cases: [string, () => void][] = [
      ['read the user', () => notePersonal()],
      ['two audiences', () => (noteAudience('member'), noteAudience('paid'))],
      ['a preview or a gift', () => noteAudience(null)],
    ];
    for (const [name, notes] of cases) {
      const request = { requestId: name };
      const record = openRenderRecord(request);
      inRequest(request, notes);
      expect(record.personal, name).toBe(true);
    }
  });

  it('is the metered audience’s only when a free member’s render showed one meter line', () => {
    // docs/decisions/055-metered-wall.md: the post page's reader notes `metered` and the line
    // only with the front server's decision; any other mix is no audience's page.
    const cases: [string, () => void][] = [
      ['member, then metered', () => (noteAudience('member'), noteAudience('metered'))],
      ['metered, then member', () => (noteAudience('metered'), noteAudience('member'))],
      ['one line twice', () => (noteMeter('metered:3:2'), noteMeter('metered:3:2'))],
    ];
    for (const [name, notes] of cases) {
      const request = { requestId: name };
      const record = openRenderRecord(request);
      inRequest(request, () => (noteAudience('member'), notes()));
      expect(record.personal, name).toBe(false);
    }
    const personal: [string, () => void][] = [
      ['paid, then metered', () => (noteAudience('paid'), noteAudience('metered'))],
      ['anonymous, then metered', () => (noteAudience('anonymous'), noteAudience('metered'))],
      ['two lines', () => (noteMeter('metered:3:2'), noteMeter('paywall:3:2'))],
    ];
    for (const [name, notes] of personal) {
      const request = { requestId: name };
      const record = openRenderRecord(request);
      inRequest(request, notes);
      expect(record.personal, name).toBe(true);
    }
  });

  it('works nothing out for a request without one, or outside any request', () => {
    let worked = 0;
    const work = () => {
      worked++;
      return readOf('a')();
    };
    inRequest({ requestId: 'no record' }, () => {
      noteContentReads(work);
      noteAudience('paid');
      notePersonal();
    });
    noteContentReads(work);
    expect(worked).toBe(0);
  });
});
