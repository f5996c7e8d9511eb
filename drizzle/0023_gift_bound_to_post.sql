-- A gift is bound to its post: the id (moved by a rename) and the post's creation time.
ALTER TABLE "gifts" ADD COLUMN "content_created_at" timestamp (3) with time zone;--> statement-breakpoint
-- The post that had the id when the gift was made.
UPDATE "gifts" AS g SET "content_created_at" = c."created_at"
  FROM "cms_contents" AS c
  WHERE c."endpoint" = g."endpoint" AND c."id" = g."content_id" AND c."created_at" <= g."created_at";--> statement-breakpoint
-- A post renamed since: its gifts follow it (the old id is then a redirect and no item's).
UPDATE "gifts" AS g SET "content_id" = r."to_id", "content_created_at" = c."created_at"
  FROM "cms_redirects" AS r
  JOIN "cms_contents" AS c ON c."endpoint" = r."endpoint" AND c."id" = r."to_id"
  WHERE g."content_created_at" IS NULL AND r."endpoint" = g."endpoint" AND r."from_id" = g."content_id"
    AND c."created_at" <= g."created_at";--> statement-breakpoint
-- Whose post cannot be told any more (deleted, its id taken by a later item, or on a hosted
-- service): bound to no post, so it opens nothing; kept, as every gift made counts in its month.
UPDATE "gifts" SET "content_created_at" = 'epoch' WHERE "content_created_at" IS NULL;--> statement-breakpoint
ALTER TABLE "gifts" ALTER COLUMN "content_created_at" SET NOT NULL;
