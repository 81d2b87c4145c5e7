// The baseline: a bare Express hello-world, the same framework version as the API.
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});
app.listen(Number(process.env.PORT));
