ALTER TABLE "cms_media" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "job_listings" ADD COLUMN "reviewed_fields" jsonb;--> statement-breakpoint
CREATE INDEX "cms_media_content_hash_idx" ON "cms_media" USING btree ("content_hash");