-- A payment's message (a tip's words to the editors, a gift's card): docs/decisions/053-one-time-payments.md.
ALTER TABLE "purchases" ADD COLUMN "message" text;