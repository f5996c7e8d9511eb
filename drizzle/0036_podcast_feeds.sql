-- docs/decisions/062-private-podcast-feeds.md: each reader's private podcast feed token (a nonce and its hash).
CREATE TABLE "podcast_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"nonce" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "podcast_feeds" ADD CONSTRAINT "podcast_feeds_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "podcast_feeds_token_hash_idx" ON "podcast_feeds" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "podcast_feeds_live_user_idx" ON "podcast_feeds" USING btree ("user_id") WHERE "podcast_feeds"."revoked_at" IS NULL;