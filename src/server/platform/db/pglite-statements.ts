import {
  type PGlite,
  type messages,
  type QueryOptions,
  type Results,
  parse,
  protocol,
} from '@electric-sql/pglite';

/**
 * Statements kept prepared on the embedded database (docs/decisions/066-prepared-statements.md).
 * PGlite answers `query(text, params)` in six calls into its WebAssembly (parse, describe,
 * bind, describe, execute, sync), and PostgreSQL parses and plans the text anew each time: a
 * session read cost 0.48 ms of CPU that way and 0.06 ms as a prepared statement run in one call.
 * So each statement text is prepared once per database under a name of its own, with its
 * parameter and row types, and each query then sends bind, execute and sync in one call. The
 * same mutexes as PGlite's own query keep it apart from transactions and other queries, the
 * same serializers and parsers read and write the values, and an error is PGlite's own.
 */

type Statement = {
  name: string;
  /** The parameters' type ids, for their serializers. */
  paramTypes: number[];
  /** The statement's row description (none for a statement that returns no rows). */
  rowDescription: messages.BackendMessage | undefined;
};

/** What PGlite's query uses of itself, public in JavaScript but not in its types. */
type PGliteInternals = {
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
};

/**
 * The most statements kept at once; the least recently used one is closed past it. The site
 * runs about a hundred distinct texts; a list of ids whose length varies is one text per length.
 */
export const MAX_PREPARED_STATEMENTS = 200;

/**
 * SQLSTATEs that say a kept statement no longer stands: 26000 (it does not exist: a DISCARD ALL
 * or DEALLOCATE dropped it) and 0A000 ("cached plan must not change result type": a table it
 * reads changed shape). The query then runs once more as PGlite runs it, and is prepared anew.
 */
const STALE_STATEMENT = new Set(['26000', '0A000']);

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

/** Queries PGlite's own path answers: a blob for COPY, or parameter types the caller names. */
const needsPGlitesOwnPath = (text: string, options: QueryOptions | undefined) =>
  options?.blob !== undefined || options?.paramTypes !== undefined || text.includes('/dev/blob');

/** Makes `client.query` run each statement text as a statement prepared once. */
export function keepStatementsPrepared(client: PGlite): void {
  const ownQuery: PGlite['query'] = client.query.bind(client);
  const internals = client as unknown as PGliteInternals;
  /** By text; a Map keeps insertion order, so its first entry is the least recently used. */
  const statements = new Map<string, Statement>();
  let named = 0;
  /**
   * A caller's parsers over the client's, by the caller's object. PGlite's `parseResults` copies
   * the client's 318 parsers into a new object for every query given parsers of its own (drizzle
   * gives its own on every query): 0.08 ms each, and a copy that slow to read. Here the caller's
   * sit over the client's own object, so a type PGlite registers later is still found.
   */
  type Parsers = PGlite['parsers'];
  const layered = new WeakMap<object, Parsers>();
  const parsersFor = (options: QueryOptions | undefined): Parsers => {
    const own = options?.parsers;
    if (!own) return client.parsers;
    let parsers = layered.get(own);
    if (!parsers) {
      parsers = Object.assign(Object.create(client.parsers) as Parsers, own);
      layered.set(own, parsers);
    }
    return parsers;
  };

  /** Prepares `text` (closing the least recently used statement when there are too many). */
  async function prepare(text: string): Promise<Statement> {
    const name = `axis_${++named}`;
    const messages: Uint8Array[] = [];
    if (statements.size >= MAX_PREPARED_STATEMENTS) {
      const [oldestText, oldest] = statements.entries().next().value!;
      statements.delete(oldestText);
      messages.push(protocol.serialize.close({ type: 'S', name: oldest.name }));
    }
    messages.push(
      protocol.serialize.parse({ name, text }),
      protocol.serialize.describe({ type: 'S', name }),
      protocol.serialize.sync(),
    );
    const answer = await client.execProtocolStream(concat(messages), { syncToFs: false });
    const statement: Statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(answer),
      rowDescription: answer.find((message) => message.name === 'rowDescription'),
    };
    statements.set(text, statement);
    return statement;
  }

  async function run<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
  ): Promise<Results<T>> {
    let statement = statements.get(text);
    if (statement) {
      statements.delete(text); // used now: to the end of the order
      statements.set(text, statement);
    } else {
      statement = await prepare(text);
    }
    const types = statement.paramTypes;
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serialize = options?.serializers?.[types[i]!] ?? client.serializers[types[i]!];
      // PGlite's own fallback for a type without a serializer: the value's toString.
      return serialize ? serialize(param) : (param as { toString(): string }).toString();
    });
    const answer = await client.execProtocolStream(
      concat([
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    if (!client.isInTransaction()) await client.syncToFs();
    const messages = statement.rowDescription ? [statement.rowDescription, ...answer] : answer;
    return parse.parseResults(messages, parsersFor(options), {
      rowMode: options?.rowMode,
    })[0] as Results<T>;
  }

  /**
   * A statement that no longer stands: after a DISCARD ALL none does; a statement whose table
   * changed shape is dropped alone (a later query of its text prepares it anew).
   */
  async function forget(text: string, code: string): Promise<void> {
    if (code === '26000') return statements.clear();
    const stale = statements.get(text);
    statements.delete(text);
    if (stale) await client.exec(`DEALLOCATE ${stale.name}`).catch(() => undefined);
  }

  client.query = async function query<T>(
    text: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    if (needsPGlitesOwnPath(text, options)) return ownQuery<T>(text, params, options);
    await internals._checkReady();
    try {
      return await internals._runExclusiveTransaction(() =>
        internals._runExclusiveQuery(() => run<T>(text, params, options)),
      );
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && STALE_STATEMENT.has(code)) {
        await forget(text, code);
        return ownQuery<T>(text, params, options);
      }
      // As PGlite's own query names what failed (errors.ts makePGliteError).
      if (error instanceof Error && 'severity' in error)
        Object.assign(error, { query: text, params, queryOptions: options });
      throw error;
    }
  };
}
