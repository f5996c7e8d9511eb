CREATE TABLE "cms_submissions" (
	"endpoint" text NOT NULL,
	"content_id" text NOT NULL,
	"author_id" text,
	"state" text DEFAULT 'draft' NOT NULL,
	"review_comment" text,
	"submitted_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text,
	CONSTRAINT "cms_submissions_endpoint_content_id_pk" PRIMARY KEY("endpoint","content_id")
);
--> statement-breakpoint
ALTER TABLE "cms_submissions" ADD CONSTRAINT "cms_submissions_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cms_submissions" ADD CONSTRAINT "cms_submissions_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cms_submissions" ADD CONSTRAINT "cms_submissions_endpoint_content_id_cms_contents_endpoint_id_fk" FOREIGN KEY ("endpoint","content_id") REFERENCES "public"."cms_contents"("endpoint","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cms_submissions_author_idx" ON "cms_submissions" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "cms_submissions_state_idx" ON "cms_submissions" USING btree ("state");