CREATE TABLE "billing_sandbox_idempotency" (
	"key" text PRIMARY KEY NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"response" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_sandbox_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"seq" bigserial NOT NULL,
	"data" jsonb NOT NULL,
	"created" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_sandbox_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "billing_sandbox_objects_type_seq_idx" ON "billing_sandbox_objects" USING btree ("type","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_sandbox_prices_lookup_key_idx" ON "billing_sandbox_objects" USING btree (("data" ->> 'lookup_key')) WHERE "billing_sandbox_objects"."type" = 'price';