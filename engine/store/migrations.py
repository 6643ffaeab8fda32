"""Forward-only, numbered schema migrations; `PRAGMA user_version` records the last applied."""

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        goal TEXT NOT NULL,
        spec TEXT NOT NULL,
        status TEXT NOT NULL,
        mode TEXT,
        program_id TEXT,
        error TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tasks_status ON tasks(status, created_at);
    CREATE TABLE task_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id TEXT,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX task_events_task ON task_events(task_id, id);
    CREATE TABLE steps (
        task_id TEXT NOT NULL REFERENCES tasks(id),
        idx INTEGER NOT NULL,
        call TEXT NOT NULL,
        status TEXT NOT NULL,
        source TEXT NOT NULL,
        state_id TEXT,
        receipt_id TEXT,
        PRIMARY KEY (task_id, idx)
    );
    CREATE TABLE approvals (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks(id),
        step_idx INTEGER NOT NULL,
        call TEXT NOT NULL,
        call_hash TEXT NOT NULL,
        level TEXT NOT NULL,
        tier TEXT NOT NULL,
        rules TEXT NOT NULL,
        reason TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        decided_at REAL,
        decided_by TEXT,
        used_at REAL
    );
    CREATE INDEX approvals_status ON approvals(status);
    CREATE TABLE receipts (
        id TEXT PRIMARY KEY,
        task_id TEXT,
        step_idx INTEGER,
        call TEXT NOT NULL,
        tier TEXT NOT NULL,
        snapshot_kind TEXT NOT NULL,
        snapshot_path TEXT,
        reversal TEXT NOT NULL,
        summary TEXT NOT NULL,
        created_at REAL NOT NULL,
        reversed_at REAL
    );
    CREATE TABLE programs (
        id TEXT PRIMARY KEY,
        signature TEXT NOT NULL UNIQUE,
        body TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE TABLE program_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        program_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        outcome TEXT NOT NULL,
        at REAL NOT NULL
    );
    """,
    """
    ALTER TABLE tasks ADD COLUMN heartbeat_at REAL;
    """,
    """
    ALTER TABLE tasks ADD COLUMN claimed_by TEXT;
    ALTER TABLE steps ADD COLUMN output TEXT;
    ALTER TABLE receipts ADD COLUMN env TEXT;
    CREATE INDEX receipts_created ON receipts(created_at);
    """,
    """
    ALTER TABLE tasks ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tasks ADD COLUMN env TEXT;
    ALTER TABLE steps ADD COLUMN pending TEXT;
    """,
    """
    ALTER TABLE tasks ADD COLUMN usage TEXT;
    ALTER TABLE tasks ADD COLUMN budget TEXT;
    ALTER TABLE steps ADD COLUMN trace TEXT;
    """,
    # The selector's full-text index over each program's description and goal template, kept in step
    # by the corpus (rows keyed by program id; kind and status ride along to filter on); and why a
    # replay ended, for `warden programs show`.
    """
    CREATE VIRTUAL TABLE program_index USING fts5(
        program_id UNINDEXED, kind UNINDEXED, status UNINDEXED, description, goal_template,
        tokenize = 'unicode61 remove_diacritics 2'
    );
    INSERT INTO program_index (program_id, kind, status, description, goal_template)
        SELECT id,
               coalesce(json_extract(body, '$.env.kind'), 'workspace'),
               CASE WHEN json_type(body, '$.verification.status') = 'text'
                        THEN json_extract(body, '$.verification.status')
                    WHEN json_extract(body, '$.verification.passed') THEN 'verified'
                    ELSE 'unverified' END,
               coalesce(json_extract(body, '$.description'), ''),
               json_extract(body, '$.goal_template')
        FROM programs WHERE json_valid(body);
    ALTER TABLE program_runs ADD COLUMN detail TEXT NOT NULL DEFAULT '';
    CREATE INDEX program_runs_program ON program_runs(program_id, at);
    """,
    # A compensable receipt's cooperating system, key, deadline and compensating call (JSON); an undo's own
    # receipt names the receipt it undid.
    """
    ALTER TABLE receipts ADD COLUMN system TEXT;
    ALTER TABLE receipts ADD COLUMN system_key TEXT;
    ALTER TABLE receipts ADD COLUMN deadline REAL;
    ALTER TABLE receipts ADD COLUMN compensation TEXT;
    ALTER TABLE receipts ADD COLUMN undoes TEXT;
    CREATE INDEX receipts_undoes ON receipts(undoes) WHERE undoes IS NOT NULL;
    """,
    # What an approval is bound to beyond its call: the digest of the contents of the files its call runs
    # as code ('' when none), and the start of each file's text as the person was shown it (JSON).
    """
    ALTER TABLE approvals ADD COLUMN binding TEXT NOT NULL DEFAULT '';
    ALTER TABLE approvals ADD COLUMN code TEXT;
    """,
    # Where a screen call would act when a person was asked about it (JSON: the page's URL and the element,
    # `engine/envs/scene.py`); NULL for a call with no screen.
    """
    ALTER TABLE approvals ADD COLUMN scene TEXT;
    """,
    # A step's whole call and a task's whole spec when they hold long text, written once: their rows, written
    # again by every change of status, keep them abridged (`engine/tasks/queue.py`). Older rows stay whole.
    """
    CREATE TABLE step_calls (
        task_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        call TEXT NOT NULL,
        PRIMARY KEY (task_id, idx)
    );
    CREATE TABLE task_specs (
        task_id TEXT PRIMARY KEY,
        spec TEXT NOT NULL
    );
    """,
    # Scoped grants (`engine/gate/grants.py`): a person's approval for a pattern of calls, in one task or any,
    # until it expires or is revoked; and why the gate asked about an approval's call (its route, in words).
    """
    CREATE TABLE grants (
        id TEXT PRIMARY KEY,
        scope TEXT NOT NULL,
        task_id TEXT,
        pattern TEXT NOT NULL,
        shown TEXT NOT NULL,
        approval_id TEXT,
        granted_by TEXT NOT NULL,
        granted_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        revoked_at REAL,
        revoked_by TEXT,
        uses INTEGER NOT NULL DEFAULT 0
    );
    ALTER TABLE approvals ADD COLUMN route TEXT NOT NULL DEFAULT '';
    """,
    # Host sessions (`engine/hosts/sessions.py`): which task is a host's session (Claude Code's session id, ...).
    """
    CREATE TABLE host_sessions (
        host TEXT NOT NULL,
        session TEXT NOT NULL,
        task_id TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (host, session)
    );
    """,
)
