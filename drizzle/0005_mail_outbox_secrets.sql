ALTER TABLE "mail_outbox" ADD COLUMN "secret" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "token_user_id" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "link_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "link_removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "redacted_text" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "redacted_html" text;--> statement-breakpoint
CREATE INDEX "mail_outbox_live_links_idx" ON "mail_outbox" USING btree ("link_expires_at") WHERE "mail_outbox"."link_removed_at" IS NULL AND "mail_outbox"."link_expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "mail_outbox_live_links_user_idx" ON "mail_outbox" USING btree ("token_user_id") WHERE "mail_outbox"."link_removed_at" IS NULL AND "mail_outbox"."link_expires_at" IS NOT NULL;--> statement-breakpoint
-- Mails kept before this migration carry no flag: the kinds that held a token link are marked, and their bodies (whose tokens may still work) are dropped.
UPDATE "mail_outbox" SET "secret" = true, "link_removed_at" = CASE WHEN "text_body" IS NULL AND "html_body" IS NULL THEN NULL ELSE now() END, "text_body" = CASE WHEN "text_body" IS NULL AND "html_body" IS NULL THEN NULL ELSE 'このメールのリンクは使用済みまたは期限切れのため削除されました。' END, "html_body" = NULL WHERE "kind" IN ('verify-email', 'reset-password', 'change-email');
