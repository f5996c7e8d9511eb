-- docs/decisions/063-newsletter-analytics.md: letters' links and clicks, the tracking opt-out, subject line tests (held letters, the winner).
CREATE TABLE "newsletter_tracking_opt_outs" (
	"user_id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "newsletter_letters" ADD COLUMN "variant" integer;--> statement-breakpoint
ALTER TABLE "newsletter_letters" ADD COLUMN "links" text[];--> statement-breakpoint
ALTER TABLE "newsletter_letters" ADD COLUMN "clicked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_letters" ADD COLUMN "click_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "subjects" text[];--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "test_sample_percent" integer;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "test_wait_minutes" integer;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "test_metric" text;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "test_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD COLUMN "winner" integer;--> statement-breakpoint
ALTER TABLE "newsletter_tracking_opt_outs" ADD CONSTRAINT "newsletter_tracking_opt_outs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "newsletter_letters_user_opened_idx" ON "newsletter_letters" USING btree ("user_id","opened_at" DESC NULLS LAST);