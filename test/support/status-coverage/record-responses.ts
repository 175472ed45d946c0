import { flushRecords, RECORD_DIR_ENV, recordResponses } from './recorder';

// jest's setupFilesAfterEnv: runs in each test file's module registry before the file itself.
const directory = process.env[RECORD_DIR_ENV];
if (directory) {
  recordResponses(directory);
  afterAll(() => flushRecords());
}
