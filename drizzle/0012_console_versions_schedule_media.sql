CREATE TABLE "cms_media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"file_size" bigint NOT NULL,
	"width" integer,
	"height" integer,
	"alt" text DEFAULT '' NOT NULL,
	"filename" text DEFAULT '' NOT NULL,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cms_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint" text NOT NULL,
	"content_id" text NOT NULL,
	"data" jsonb,
	"status" text NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cms_contents" ADD COLUMN "scheduled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "cms_contents" ADD COLUMN "updated_by" text;--> statement-breakpoint
CREATE UNIQUE INDEX "cms_media_url_idx" ON "cms_media" USING btree ("url");--> statement-breakpoint
CREATE INDEX "cms_media_created_idx" ON "cms_media" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cms_versions_item_idx" ON "cms_versions" USING btree ("endpoint","content_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cms_contents_scheduled_idx" ON "cms_contents" USING btree ("scheduled_at") WHERE scheduled_at IS NOT NULL;