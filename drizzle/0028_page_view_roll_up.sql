CREATE TABLE "page_view_days" (
	"day" text PRIMARY KEY NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"rolled_up_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_view_item_days" (
	"day" text NOT NULL,
	"endpoint" text NOT NULL,
	"content_id" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"member_views" integer NOT NULL,
	"paywall_views" integer NOT NULL,
	CONSTRAINT "page_view_item_days_day_endpoint_content_id_pk" PRIMARY KEY("day","endpoint","content_id")
);
--> statement-breakpoint
CREATE TABLE "page_view_item_months" (
	"month" text NOT NULL,
	"endpoint" text NOT NULL,
	"content_id" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"member_views" integer NOT NULL,
	"paywall_views" integer NOT NULL,
	CONSTRAINT "page_view_item_months_month_endpoint_content_id_pk" PRIMARY KEY("month","endpoint","content_id")
);
--> statement-breakpoint
CREATE TABLE "page_view_months" (
	"month" text PRIMARY KEY NOT NULL,
	"rolled_up_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "page_view_item_days" ADD CONSTRAINT "page_view_item_days_day_page_view_days_day_fk" FOREIGN KEY ("day") REFERENCES "public"."page_view_days"("day") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_view_item_months" ADD CONSTRAINT "page_view_item_months_month_page_view_months_month_fk" FOREIGN KEY ("month") REFERENCES "public"."page_view_months"("month") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- A roll-up stands for the page views of its day (and month) as they were when it was counted
-- (docs/decisions/049-page-view-roll-up.md): any later change to a day's views (a view recorded
-- late, an item renamed) deletes that day's roll-up and its month's, so the report reads the day
-- from page_views and rolls both up again. The shared lock waits for a roll-up in progress, which
-- holds the same key exclusively (src/server/features/analytics/roll-up.ts), so no change falls
-- between the two.
CREATE FUNCTION "page_views_reopen_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('page_view_days'));
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "page_view_days";
    DELETE FROM "page_view_months";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    DELETE FROM "page_view_days" WHERE "day" IN (SELECT "day" FROM "changed_new");
    DELETE FROM "page_view_months" WHERE "month" IN (SELECT left("day", 7) FROM "changed_new");
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM "page_view_days" WHERE "day" IN (SELECT "day" FROM "changed_old");
    DELETE FROM "page_view_months" WHERE "month" IN (SELECT left("day", 7) FROM "changed_old");
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "page_views_reopen_days_insert" AFTER INSERT ON "page_views" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "page_views_reopen_days"();
--> statement-breakpoint
CREATE TRIGGER "page_views_reopen_days_update" AFTER UPDATE ON "page_views" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "page_views_reopen_days"();
--> statement-breakpoint
CREATE TRIGGER "page_views_reopen_days_delete" AFTER DELETE ON "page_views" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "page_views_reopen_days"();
--> statement-breakpoint
CREATE TRIGGER "page_views_reopen_days_truncate" AFTER TRUNCATE ON "page_views" FOR EACH STATEMENT EXECUTE FUNCTION "page_views_reopen_days"();
