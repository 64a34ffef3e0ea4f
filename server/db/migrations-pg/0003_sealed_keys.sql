CREATE TABLE "sealed_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"sealed" "bytea" NOT NULL,
	"updated_at" bigint NOT NULL
);
