-- Gift subscriptions: months of a plan given to an address (docs/decisions/054-gift-subscriptions.md).
CREATE TABLE "plan_gifts" (
	"purchase_id" text PRIMARY KEY NOT NULL,
	"plan_key" text NOT NULL,
	"months" integer NOT NULL,
	"recipient_email" text NOT NULL,
	"deliver_at" timestamp with time zone NOT NULL,
	"token_hash" text,
	"delivered_at" timestamp with time zone,
	"redeemed_at" timestamp with time zone,
	"redeemed_by" text,
	"grant_kind" text,
	"grant_subscription_id" text,
	"grant_start" timestamp with time zone,
	"grant_end" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_gifts_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "plan_gifts" ADD CONSTRAINT "plan_gifts_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_gifts" ADD CONSTRAINT "plan_gifts_redeemed_by_user_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_gifts_due_idx" ON "plan_gifts" USING btree ("deliver_at") WHERE "plan_gifts"."delivered_at" is null;--> statement-breakpoint
CREATE INDEX "plan_gifts_grant_end_idx" ON "plan_gifts" USING btree ("grant_end") WHERE "plan_gifts"."reminded_at" is null;