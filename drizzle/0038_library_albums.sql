CREATE TABLE "library_albums" (
	"user_id" uuid NOT NULL,
	"album_id" uuid NOT NULL,
	"environment" "api_key_environment" DEFAULT 'live' NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "library_albums_user_id_environment_album_id_pk" PRIMARY KEY("user_id","environment","album_id")
);
--> statement-breakpoint
ALTER TABLE "library_albums" ADD CONSTRAINT "library_albums_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_albums" ADD CONSTRAINT "library_albums_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "library_albums_user_saved_idx" ON "library_albums" USING btree ("user_id","environment","saved_at");