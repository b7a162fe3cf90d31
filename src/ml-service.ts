/** Process entry of `npm run ml-service`: the AI engine as an HTTP service (see src/ml-service/README.md). */
import { main } from './ml-service/main.js';

main().catch((error) => {
  process.stderr.write(`ML service failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
