-- Offers redeemed by completed checkouts, counted against the site's cap (decision 028, amended).
CREATE TABLE "offer_redemptions" (
	"subscription_id" text PRIMARY KEY NOT NULL,
	"promotion_code_id" text NOT NULL,
	"counted" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "offer_redemptions_code_idx" ON "offer_redemptions" USING btree ("promotion_code_id");