CREATE TABLE "cms_redirects" (
	"endpoint" text NOT NULL,
	"from_id" text NOT NULL,
	"to_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cms_redirects_endpoint_from_id_pk" PRIMARY KEY("endpoint","from_id")
);
--> statement-breakpoint
CREATE INDEX "cms_redirects_to_idx" ON "cms_redirects" USING btree ("endpoint","to_id");