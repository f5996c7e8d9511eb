-- Rows from before hold no open text (search_version ''): the open text is never matched on such a row, and the site search reindexes them on first use (src/server/cms/search-index.ts).
ALTER TABLE "cms_contents" ADD COLUMN "open_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "cms_contents" ADD COLUMN "open_tokens" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "cms_contents" ADD COLUMN "search_version" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "cms_contents_open_tokens_idx" ON "cms_contents" USING gin ("open_tokens");