CREATE TABLE "cms_presence" (
	"endpoint" text NOT NULL,
	"content_id" text NOT NULL,
	"user_id" text NOT NULL,
	"instance" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"last_seen" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "cms_presence_endpoint_content_id_user_id_pk" PRIMARY KEY("endpoint","content_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "cms_presence" ADD CONSTRAINT "cms_presence_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cms_presence_last_seen_idx" ON "cms_presence" USING btree ("last_seen");