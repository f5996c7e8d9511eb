CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "cms_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"permissions" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cms_contents" (
	"endpoint" text NOT NULL,
	"id" text NOT NULL,
	"status" text NOT NULL,
	"data" jsonb,
	"draft_data" jsonb,
	"draft_key" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"published_at" timestamp (3) with time zone,
	"revised_at" timestamp (3) with time zone,
	"search_text" text DEFAULT '' NOT NULL,
	"search_tokens" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "cms_contents_endpoint_id_pk" PRIMARY KEY("endpoint","id")
);
--> statement-breakpoint
CREATE TABLE "cms_rate_limits" (
	"key_id" text NOT NULL,
	"kind" text NOT NULL,
	"window" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "cms_rate_limits_key_id_kind_window_pk" PRIMARY KEY("key_id","kind","window")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "cms_api_keys_hash_idx" ON "cms_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "cms_contents_draft_key_idx" ON "cms_contents" USING btree ("draft_key");--> statement-breakpoint
CREATE INDEX "cms_contents_created_idx" ON "cms_contents" USING btree ("endpoint","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cms_contents_published_idx" ON "cms_contents" USING btree ("endpoint","published_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cms_contents_search_tokens_idx" ON "cms_contents" USING gin ("search_tokens");--> statement-breakpoint
CREATE INDEX "cms_contents_data_idx" ON "cms_contents" USING gin ("data" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "cms_contents_search_text_idx" ON "cms_contents" USING gin ("search_text" gin_trgm_ops);