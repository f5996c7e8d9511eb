-- Checkouts paid by a visitor with an e-mail address only, until an account claims them.
CREATE TABLE "guest_checkouts" (
	"session_id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"customer_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"plan" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "guest_checkouts" ADD CONSTRAINT "guest_checkouts_claimed_by_user_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "guest_checkouts_email_idx" ON "guest_checkouts" USING btree ("email");--> statement-breakpoint
CREATE INDEX "guest_checkouts_customer_idx" ON "guest_checkouts" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "guest_checkouts_claimed_by_idx" ON "guest_checkouts" USING btree ("claimed_by");