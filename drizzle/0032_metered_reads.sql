-- docs/decisions/055-metered-wall.md: the metered wall's reads and the console's site settings.
CREATE TABLE "site_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metered_reads" (
	"user_id" text NOT NULL,
	"month" text NOT NULL,
	"content_id" text NOT NULL,
	"content_created_at" timestamp (3) with time zone NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "metered_reads_user_id_month_content_id_content_created_at_pk" PRIMARY KEY("user_id","month","content_id","content_created_at")
);
--> statement-breakpoint
ALTER TABLE "metered_reads" ADD CONSTRAINT "metered_reads_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "metered_reads_content_idx" ON "metered_reads" USING btree ("content_id","read_at");