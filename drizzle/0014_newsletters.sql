CREATE TABLE "newsletter_consents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text,
	"email" text NOT NULL,
	"action" text NOT NULL,
	"method" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_hash" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "newsletter_letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"send_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"audience" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"error" text,
	"opened_at" timestamp with time zone,
	"open_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"content_id" text NOT NULL,
	"segment" text NOT NULL,
	"status" text NOT NULL,
	"with_publication" boolean DEFAULT false NOT NULL,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"queued_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "newsletter_suppressions" (
	"email" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "newsletter_consents" ADD CONSTRAINT "newsletter_consents_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_letters" ADD CONSTRAINT "newsletter_letters_send_id_newsletter_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."newsletter_sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_letters" ADD CONSTRAINT "newsletter_letters_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "newsletter_consents_user_idx" ON "newsletter_consents" USING btree ("user_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "newsletter_consents_email_idx" ON "newsletter_consents" USING btree ("email","at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_letters_send_user_idx" ON "newsletter_letters" USING btree ("send_id","user_id");--> statement-breakpoint
CREATE INDEX "newsletter_letters_send_status_idx" ON "newsletter_letters" USING btree ("send_id","status");--> statement-breakpoint
CREATE INDEX "newsletter_letters_due_idx" ON "newsletter_letters" USING btree ("next_attempt_at") WHERE status IN ('queued', 'sending');--> statement-breakpoint
CREATE INDEX "newsletter_sends_created_idx" ON "newsletter_sends" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "newsletter_sends_scheduled_idx" ON "newsletter_sends" USING btree ("content_id") WHERE status = 'scheduled';