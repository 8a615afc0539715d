-- A data folder's database as the judge of the release before numbered migrations left it: three
-- users, a session, a login failure, a judged submission with its case output, a queued one.
-- tests/web/test_database.py opens it with today's judge. Made once; never regenerate it.
BEGIN TRANSACTION;
CREATE TABLE case_io (
    submission INTEGER NOT NULL REFERENCES submissions(id),
    name TEXT NOT NULL,
    stdout BLOB NOT NULL,
    stderr BLOB NOT NULL,
    PRIMARY KEY (submission, name)
);
INSERT INTO "case_io" VALUES(1,'samples/01',X'330A',X'');
CREATE TABLE explanations (
    submission INTEGER PRIMARY KEY REFERENCES submissions(id),
    student TEXT NOT NULL,
    requested REAL NOT NULL,
    status TEXT NOT NULL,           -- queued, running, done
    worker INTEGER,
    result TEXT,                    -- the explanation's JSON, or NULL with `error`
    error TEXT
);
CREATE TABLE io_cut (
    submission INTEGER PRIMARY KEY REFERENCES submissions(id),
    why TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE login_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last REAL NOT NULL,
    locked_until REAL NOT NULL
);
INSERT INTO "login_failures" VALUES('user:bo',1,1800000000.0,1800000000.0);
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    user TEXT NOT NULL REFERENCES users(id),
    created REAL NOT NULL,
    expires REAL NOT NULL
);
INSERT INTO "sessions" VALUES('d3f48c7b3441b11384350277a07ffadaa97233570f7733158f533e67783dacfd','ada',1800000000.0,1800043200.0);
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    student TEXT NOT NULL REFERENCES users(id),
    problem TEXT NOT NULL,
    language TEXT NOT NULL,
    filename TEXT NOT NULL,
    source BLOB NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL,           -- queued, compiling, running, done
    case_done INTEGER NOT NULL DEFAULT 0,
    case_total INTEGER NOT NULL DEFAULT 0,
    attempt INTEGER NOT NULL DEFAULT 0,   -- times a worker claimed it
    worker INTEGER,                       -- the process id of the worker that has it
    finishes INTEGER NOT NULL DEFAULT 0,  -- results stored for the current judging (ends at 1)
    verdict TEXT,
    score REAL,
    max_score REAL,
    result TEXT,
    finished REAL,
    started REAL,                         -- when the current judging (or turn of it) was claimed
    queued REAL,                          -- when it last joined the queue
    partial TEXT                          -- the cases judged in earlier turns (JSON), or NULL
);
INSERT INTO "submissions" VALUES(1,'ada','lanqiao','python3','lanqiao.py',X'7072696E742833290A',1800000100.0,'done',0,0,1,11,1,'NG',0.0,100.0,'{"schema": 2, "student": "ada", "problem": "lanqiao", "source": "lanqiao.py", "language": "python3", "hash": "f00d", "verdict": "NG", "score": 0.0, "max_score": 100.0, "compile_output": "", "sandbox": "", "cases": [], "groups": [], "error": "made for the upgrade test"}',1800000103.0,1800000101.0,1800000100.0,NULL);
INSERT INTO "submissions" VALUES(2,'bo','eight-digits','c','e.c',X'696E74206D61696E28297B72657475726E20303B7D0A',1800000200.0,'queued',0,0,0,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,1800000200.0,NULL);
CREATE TABLE turns (
    student TEXT NOT NULL,
    ended REAL NOT NULL,
    seconds REAL NOT NULL
);
INSERT INTO "turns" VALUES('ada',1800000103.0,2.0);
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('student', 'teacher')),
    token_hash TEXT NOT NULL,
    created REAL NOT NULL
);
INSERT INTO "users" VALUES('ada','student','f013b6fa5b6a3c68$bfa159ba7d04caf31f1ee1f8fd996e5e2673c06028fddc78392318ff4e1dcd67',1.79650427202048087113e+09);
INSERT INTO "users" VALUES('bo','student','33f8fdc3a1117736$e94ac167b677002c958b7de71d703535115529aa08d3a4d381fcadf9908772ed',1.79650427202179169654e+09);
INSERT INTO "users" VALUES('tess','teacher','f1a7099e620c4335$429c035bcbee72712e87aa838e46c0a0faebb6fc7aa2e2ee55999cf4d59e43e2',1.79650427202295851708e+09);
CREATE INDEX submissions_by_student ON submissions (student, id);
CREATE INDEX submissions_by_status ON submissions (status, id);
CREATE INDEX explanations_by_student ON explanations (student, requested);
CREATE INDEX sessions_by_user ON sessions (user);
CREATE INDEX turns_by_student ON turns (student, ended);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('submissions',2);
COMMIT;
