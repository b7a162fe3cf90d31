-- Sessions opened before second_factor existed. Staff logins always passed TOTP, and so did platform logins
-- of admin roles (their 2FA step); other platform sessions did not, and keep the default false.
UPDATE "auth_sessions" AS s
SET "second_factor" = true
FROM "users" AS u
WHERE u."id" = s."user_id"
  AND s."revoked_at" IS NULL
  AND (s."kind" = 'staff' OR u."role" IN ('admin', 'super_admin'));
