import { S3Storage } from '@studioshot/storage';
import { loadEnv, webOrigins } from '../env.js';

// Sets the S3 bucket's CORS rule from the API's own settings (S3_*, WEB_ORIGINS, PUBLIC_URL), so
// the web app's pages may fetch the presigned image links the API redirects to (the gallery's
// download reads the image from script). Run once per deployment with credentials allowed to
// change the bucket's configuration; the API itself needs no such right.

const env = loadEnv(process.env);
if (env.STORAGE_DRIVER !== 's3' || !env.S3_BUCKET) {
  console.error('STORAGE_DRIVER=s3 and S3_BUCKET are required: local storage has no CORS');
  process.exit(1);
}
const origins = webOrigins(env);
if (origins.length === 0) {
  console.error('no web origin: set WEB_ORIGINS or PUBLIC_URL');
  process.exit(1);
}
const storage = new S3Storage({
  bucket: env.S3_BUCKET,
  region: env.S3_REGION,
  endpoint: env.S3_ENDPOINT,
  forcePathStyle: env.S3_FORCE_PATH_STYLE,
});
await storage.allowDownloadsFrom(origins);
console.log(`bucket ${env.S3_BUCKET}: downloads allowed from ${origins.join(', ')}`);
await storage.close();
