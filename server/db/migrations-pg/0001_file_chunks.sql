CREATE TABLE "file_chunks" (
	"sha256" text NOT NULL,
	"chunk" bigint NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_sha256_chunk_pk" PRIMARY KEY("sha256","chunk")
);
