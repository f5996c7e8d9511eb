-- One-time payments (docs/decisions/053-one-time-payments.md): the purchases ledger.
CREATE TABLE "purchases" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"kind" text NOT NULL,
	"endpoint" text,
	"content_id" text,
	"content_created_at" timestamp with time zone,
	"title" text NOT NULL,
	"amount" integer NOT NULL,
	"tax" integer NOT NULL,
	"method" text NOT NULL,
	"customer_id" text NOT NULL,
	"session_id" text,
	"payment_intent_id" text,
	"state" text NOT NULL,
	"voucher_url" text,
	"voucher_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "purchases_session_id_unique" UNIQUE("session_id"),
	CONSTRAINT "purchases_payment_intent_id_unique" UNIQUE("payment_intent_id")
);
--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchases_user_idx" ON "purchases" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_one_live_post_idx" ON "purchases" USING btree ("user_id","endpoint","content_id") WHERE "purchases"."state" in ('pending', 'paid') and "purchases"."kind" = 'post';