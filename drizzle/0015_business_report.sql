ALTER TABLE "page_views" ADD COLUMN "audience" text;--> statement-breakpoint
ALTER TABLE "page_views" ADD COLUMN "paywall" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "amount" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "interval" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "interval_count" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "source_endpoint" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "source_content_id" text;--> statement-breakpoint
ALTER TABLE "user_private_profiles" ADD COLUMN "source_endpoint" text;--> statement-breakpoint
ALTER TABLE "user_private_profiles" ADD COLUMN "source_content_id" text;