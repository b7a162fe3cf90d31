CREATE TABLE "listener_samples" (
	"minute" timestamp with time zone PRIMARY KEY NOT NULL,
	"listeners" integer NOT NULL
);
