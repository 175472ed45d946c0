// Generated from api.yaml by `npm run generate` (openapi-typescript). Do not edit: edit api.yaml and regenerate.
export interface paths {
    "/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents
         * @description Agents in creation order (oldest first), `skip` and `limit` paginated, optionally
         *     filtered by `status`. Out-of-range or unknown query parameters answer 422.
         */
        get: operations["listAgents"];
        put?: never;
        /**
         * Create an agent
         * @description Creates an agent in status `idle`, owned by the calling user (an API key's agents have no
         *     owner). Beyond the owner's quota of agents the answer is 409 `quota_exceeded`.
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        /** Read an agent */
        get: operations["getAgent"];
        /**
         * Replace an agent
         * @description Replaces `name` and `type`. The status is not changed by a replacement.
         */
        put: operations["replaceAgent"];
        post?: never;
        /** Delete an agent and its tasks */
        delete: operations["deleteAgent"];
        options?: never;
        head?: never;
        /**
         * Update an agent partially
         * @description Changes any of `name`, `type` and `status`. A status change must be one the agent's
         *     state machine allows (see the `agents` tag); otherwise 409 `state_conflict`.
         */
        patch: operations["updateAgent"];
        trace?: never;
    };
    "/agents/{agent_id}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        /**
         * List an agent's tasks
         * @description Tasks of the agent in creation order (oldest first), paginated like agents. A page stops
         *     short of `limit` when the next task would take the answer beyond the response budget
         *     (`MAX_RESPONSE_BYTES`, 4 MiB by default): advance `skip` by the number of tasks received.
         */
        get: operations["listTasks"];
        put?: never;
        /**
         * Queue a task on an agent
         * @description Creates a task in status `queued`. A `paused` agent accepts no new task (409
         *     `state_conflict`); neither does an agent at its quota of tasks, or one whose owner would
         *     store more than their quota of bytes (409 `quota_exceeded`).
         */
        post: operations["createTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agent_id}/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        /** Read a task */
        get: operations["getTask"];
        put?: never;
        post?: never;
        /**
         * Delete a task
         * @description Deletes the task whatever its status. Deleting the agent's last running task makes a
         *     `running` agent `idle`.
         */
        delete: operations["deleteTask"];
        options?: never;
        head?: never;
        /**
         * Update a task or move it through its states
         * @description `title`, `description` and `priority` can change while the task is `queued`.
         *     `status` moves the task through its state machine (see the `tasks` tag); `result` may
         *     only accompany `succeeded` and `error` only `failed` (otherwise 400 `validation_error`).
         *     Starting a task makes an `idle` agent `running`; ending its agent's last running task
         *     makes a `running` agent `idle` again. Illegal transitions answer 409 `state_conflict`; a
         *     change that would take the agent's owner beyond their quota of stored bytes (a large
         *     `result`, say) answers 409 `quota_exceeded`.
         */
        patch: operations["updateTask"];
        trace?: never;
    };
    "/protected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who am I (bearer only)
         * @description Answers the e-mail of the user whose bearer token was sent. Only a bearer token is accepted here; an agent's token is refused (403).
         */
        get: operations["getProtected"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue an access token (OAuth 2.0 password grant, first-party only)
         * @description RFC 6749 section 4.3: `grant_type=password` with `username` (the e-mail) and `password`,
         *     form-encoded.
         *
         *     RFC 6749 section 4.4: `grant_type=client_credentials` signs an agent in with one of its
         *     keys: `client_id` (the key's `id`) and `client_secret` (its secret), as form fields or as
         *     HTTP Basic credentials. The answer is a bearer token of at most 15 minutes that acts as
         *     the key's agent within the key's scopes, with no refresh token; it stops working when the
         *     key is revoked or expires. An unknown, revoked or expired key, or a wrong secret, answers
         *     401 `invalid_client`. Errors follow RFC 6749 section 5.2. Kept for first-party and Swagger UI use;
         *     RFC 9700 forbids this grant to third-party clients. Failed password grants share the
         *     limits of `POST /api/auth/login` (5 failures an hour per client, and a back-off per
         *     account; 429 beyond them), and a password grant sets the device cookie
         *     `agent_fleet_device` as it does (here with path `/token`). A refused `client_credentials`
         *     grant counts against the key id it names alone (the same back-off as an account's), never
         *     against the client address: a worker that keeps presenting a revoked key locks out neither
         *     its neighbours nor its owner.
         *
         *     Each password grant begins a session and answers a refresh token with the access token.
         *     `grant_type=refresh_token` with `refresh_token` answers a new access token and a new
         *     refresh token (rotation); the old one is spent. Presenting a spent refresh token again is
         *     taken as theft and ends the session: every token of it stops working (RFC 9700 section
         *     4.14.2). A refresh token also stops working at logout, logout-all, a password or e-mail
         *     change, and `REFRESH_TOKEN_TTL` after the password grant.
         */
        post: operations["issueToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users (admins only)
         * @description Page-numbered (`page`, `limit`, `meta.total`). Anyone but an admin gets 403.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Sign up
         * @description Creates a user with role `user`. `name` is trimmed (1 to 100 characters after trimming),
         *     `email` is stored lower-case and must be unused (409), `password` (8 to 1024 characters)
         *     is stored as an argon2id hash and never returned.
         */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * Read a user
         * @description A user reads only themself (others: 404); admins read anyone.
         */
        get: operations["getUser"];
        /**
         * Replace a user
         * @description Replaces `name`, `email` and `age` (absent: null); `password` changes it when given. The role cannot be set.
         */
        put: operations["replaceUser"];
        post?: never;
        /**
         * Delete a user
         * @description Deletes the user with their posts and agents (and the agents' tasks).
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /** Update a user partially */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/v1/users/{user_id}/posts": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * List a user's posts
         * @description Any signed-in principal reads posts. Cursor-paginated, newest first unless `sort` says
         *     otherwise. A page stops short of `limit` when the next post would take the answer beyond
         *     the response budget (`MAX_RESPONSE_BYTES`, 4 MiB by default); `meta.nextCursor` continues
         *     after the last post given.
         */
        get: operations["listPosts"];
        put?: never;
        /**
         * Write a post
         * @description Only the user themself (or an admin) writes their posts (403 otherwise).
         */
        post: operations["createPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents (conventions surface)
         * @description The same agents as `GET /agents`, cursor-paginated and enveloped.
         */
        get: operations["listAgentsV1"];
        put?: never;
        /** Create an agent (conventions surface) */
        post: operations["createAgentV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        /** Read an agent (conventions surface) */
        get: operations["getAgentV1"];
        /** Replace an agent (conventions surface) */
        put: operations["replaceAgentV1"];
        post?: never;
        /** Delete an agent and its tasks (conventions surface) */
        delete: operations["deleteAgentV1"];
        options?: never;
        head?: never;
        /** Update an agent partially (conventions surface) */
        patch: operations["updateAgentV1"];
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        /**
         * List an agent's tasks (conventions surface)
         * @description Cursor-paginated, newest first unless `sort` says otherwise. A page stops short of
         *     `limit` when the next task would take the answer beyond the response budget
         *     (`MAX_RESPONSE_BYTES`, 4 MiB by default); `meta.nextCursor` continues after the last task
         *     given.
         */
        get: operations["listTasksV1"];
        put?: never;
        /** Queue a task (conventions surface) */
        post: operations["createTaskV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        /** Read a task (conventions surface) */
        get: operations["getTaskV1"];
        put?: never;
        post?: never;
        /** Delete a task (conventions surface) */
        delete: operations["deleteTaskV1"];
        options?: never;
        head?: never;
        /** Update a task (conventions surface) */
        patch: operations["updateTaskV1"];
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        /**
         * List an agent's keys
         * @description The agent's keys, revoked and expired ones included, newest first (cursor-paginated). The
         *     agent's owner, an admin or a service key may list them; an agent key may not (403).
         *     Secrets are never shown: `prefix` identifies a key.
         */
        get: operations["listAgentKeys"];
        put?: never;
        /**
         * Create a key for an agent
         * @description Creates a key that acts as this agent only, with the scopes given (all three by default).
         *     The answer holds the `secret`, in this answer only: store it now. The service keeps only
         *     its SHA-256 digest and cannot show it again. Send it as `X-API-Key`, or exchange it for a
         *     short bearer token at `POST /token` (`grant_type=client_credentials`, `client_id` = the
         *     key's `id`, `client_secret` = the secret).
         */
        post: operations["createAgentKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The key's id. An id that names no key of this agent answers 404. */
                key_id: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        /** Read an agent's key */
        get: operations["getAgentKey"];
        put?: never;
        post?: never;
        /**
         * Revoke an agent's key
         * @description From this answer on, on every instance, the key and every bearer token issued for it are
         *     refused (403 `Invalid API key`, 401 for its tokens). The key stays readable with its
         *     `revoked_at`; revoking it again changes nothing and answers 204.
         */
        delete: operations["revokeAgentKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/leases": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take the agent's next task
         * @description Claims the agent's next task: the highest `priority`, then the oldest, among its `queued`
         *     tasks whose `available_at` has passed. The task becomes `running`, its `attempts` grows by
         *     one, and the lease holds it for `ttl_seconds`: extend it (a heartbeat) before then, or it
         *     expires and the task is queued again for another worker. Each task is leased to exactly
         *     one claimer however many workers and instances race.
         *
         *     201 with the lease when a task was claimed; 204 when none became available within
         *     `wait_seconds` (a long poll: a task queued during the wait is handed out within a
         *     second). A paused or errored agent hands out nothing (409). The body is optional.
         */
        post: operations["claimLease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/leases/{lease_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The lease's id. An id that names no lease of this agent answers 404. */
                lease_id: components["parameters"]["LeaseId"];
            };
            cookie?: never;
        };
        /** Read a lease */
        get: operations["getLease"];
        put?: never;
        post?: never;
        /**
         * Give the task back
         * @description Ends the lease as `released`: its task is queued again at once, and the attempt is not
         *     counted. A lease that is no longer `active` answers 409 `LEASE_LOST`.
         */
        delete: operations["releaseLease"];
        options?: never;
        head?: never;
        /**
         * Heartbeat, or end the lease with the task's outcome
         * @description One of three bodies:
         *     - a heartbeat, `{ttl_seconds?, progress?, usage?}`: the lease now expires `ttl_seconds`
         *       from now (the lease's own TTL when absent), and `progress` is recorded on the task and
         *       the attempt;
         *     - `{status: "succeeded", result?, usage?}`: the task succeeds with `result`;
         *     - `{status: "failed", error, retry?, usage?}`: the task fails; with `retry: true` it is
         *       queued again after a back-off while attempts remain (`attempts` < `max_attempts`), and
         *       fails for good otherwise. The error stays in the task's `last_error` and its attempt's
         *       `error`, and the `task.requeued` event names it.
         *
         *     `usage` reports the tokens and money used since the last report (increments): they are
         *     added to the attempt, the task and the agent's hourly usage.
         *
         *     A lease that is no longer `active` (it expired, the task was cancelled, or it already
         *     ended) answers 409 `LEASE_LOST` and changes nothing: a worker that lost its lease can
         *     never overwrite the attempt of the worker that holds the task now.
         */
        patch: operations["updateLease"];
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/leases/{lease_id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The lease's id. An id that names no lease of this agent answers 404. */
                lease_id: components["parameters"]["LeaseId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Append log lines to the leased task
         * @description The worker holding the lease appends a batch of 1 to 100 lines to its task, each `level`
         *     and `message` (up to 8,192 characters), with optional `data` (any JSON, up to 8,192 bytes)
         *     and `at` (when it was logged; now when absent). Lines are kept with the task, tagged with
         *     the lease's attempt, at most `TASK_LOG_LINES` (10,000 by default) a task: past that the
         *     oldest go first. A lease that is no longer `active` answers 409 `LEASE_LOST` and writes
         *     nothing: a worker that lost its task never logs into another's attempt. The batch is
         *     written whole or not at all.
         */
        post: operations["appendLeaseLogs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/tasks/{task_id}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        /**
         * What each attempt of a task went through
         * @description Every lease of the task is an attempt, oldest first (cursor-paginated): who claimed it,
         *     when it started and ended, its last heartbeat and progress, how it ended (`outcome`, null
         *     while it runs) and the error its worker reported, and the usage it reported. A released
         *     attempt is listed too, though it did not count against `max_attempts`. Attempts made
         *     before the service recorded workers have `worker` null.
         */
        get: operations["listTaskAttempts"];
        put?: never;
        /**
         * Run a failed or cancelled task again
         * @description Queues a `failed` or `cancelled` task again as a new attempt, with one more attempt
         *     allowed (`max_attempts` grows by one when its attempts are spent, up to 1,000): it is
         *     claimable at once, keeps its `last_error`, its history of attempts and its usage, and a
         *     `task.requeued` event says `reason` `retried`. Its deadline, if it has a timeout, starts
         *     again at its next lease. Any other status answers 409, and so does an agent that accepts
         *     no new task (`paused`, `error`).
         */
        post: operations["retryTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/tasks/{task_id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        /**
         * A task's log lines, as pages or live
         * @description The lines the task's workers logged, oldest first. `attempt` keeps one attempt's lines;
         *     `level` keeps lines at that level or above (`debug` < `info` < `warn` < `error`).
         *
         *     With `Accept: application/json` (or none) the answer is a page: `meta.nextCursor` is the
         *     last line's id when more follow (send it as `cursor`). With `Accept: text/event-stream` it
         *     is a Server-Sent Events stream that follows the task: the lines after `cursor` (or
         *     `Last-Event-ID`; all kept lines when neither is sent), then each new line within a second
         *     of its append on any instance, as `id: <line id>`, `event: log` and `data: <the line as
         *     JSON>`, with a `: keep-alive` comment every `EVENTS_HEARTBEAT_MS`. The stream stays open
         *     until the client leaves or the instance shuts down (reconnect with `Last-Event-ID`).
         */
        get: operations["listTaskLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/task-batches": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel or retry many tasks at once
         * @description Applies `action` to the agent's tasks named by `ids` (up to 1,000), or to those in
         *     `status` (oldest first, up to `limit`), and answers task by task what changed and what was
         *     refused. Each task changes in a transaction of its own, exactly as its own cancel
         *     (`PATCH` with `status` `cancelled`) or retry (`POST .../attempts`) would: a task is never
         *     half changed, and a refusal (a task already finished, or not in a state the action takes)
         *     leaves it as it was while the others go on. `cancel` ends a running task's lease (its
         *     worker hears `LEASE_LOST`).
         *
         *     `ids` that name no task of this agent (another agent's tasks included) refuse the whole
         *     batch with 400 naming each one, and nothing changes. With `status`, `more` says that
         *     tasks beyond `limit` were left for another request.
         */
        post: operations["createTaskBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        /**
         * List the agent's schedules
         * @description The agent's schedules, oldest first (cursor-paginated).
         */
        get: operations["listSchedules"];
        put?: never;
        /**
         * Create a schedule
         * @description A schedule creates a task from its `template` at each firing: on a `cron` expression (five
         *     fields, read in `timezone`, with daylight-saving changes followed: where minute and hour
         *     are fixed, a time the clocks skip fires once at the first moment after the gap and a time
         *     they repeat fires once; with `*` or a step in them it follows real time, every hour once)
         *     or every `interval_seconds` from its creation. Exactly one of `cron` and
         *     `interval_seconds`. A cron expression that never fires (`0 0 31 2 *`) answers 400.
         *
         *     Each firing creates exactly one task, whichever instance of the service fires it. Firings
         *     missed while no instance ran are caught up once (the latest), not one by one. With
         *     `overlap` `skip`, a firing while the previous task is unfinished creates nothing. A firing
         *     that the agent refuses (it is `paused`, or a quota is reached) creates nothing either, and
         *     `last_error` says why.
         *
         *     An agent holds at most 1,000 schedules: one more answers 409 `CONFLICT`.
         */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/schedules/{schedule_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The schedule's id. An id that names no schedule of this agent answers 404. */
                schedule_id: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        /** Read a schedule */
        get: operations["getSchedule"];
        put?: never;
        post?: never;
        /**
         * Delete a schedule
         * @description It fires no more; the tasks it created stay (their `schedule_id` stays too).
         */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        /**
         * Change, pause or resume a schedule
         * @description Changes its timing (`cron` and `timezone`, or `interval_seconds`: setting one clears the
         *     other; `timezone` alone changes a cron schedule's zone, and answers 400 on an interval
         *     schedule), `template`, `overlap` or `paused`. A new timing, or a resume, sets `next_run_at`
         *     from now (an interval keeps the phase of the schedule's creation); a paused schedule has
         *     `next_run_at` null and fires nothing.
         */
        patch: operations["updateSchedule"];
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        /**
         * The tokens and money an agent's tasks used, over time
         * @description What the agent's workers reported (`usage` on heartbeats and outcomes), summed by hour or
         *     by day (UTC) from `from` to `to`, each bucket with its totals and its models. Buckets
         *     without usage are listed with zeros, so a chart needs no gaps filled. The range is at most
         *     31 days by the hour and 366 days by the day; by default the last 24 hours or 30 days.
         */
        get: operations["getAgentUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/workers": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        /**
         * Who works the agent's tasks now
         * @description The credentials (users, service keys, agent keys) that claimed one of the agent's tasks in
         *     the last 10 minutes or hold one now, most recently seen first (cursor-paginated): each with when
         *     it was last seen (its last claim, heartbeat or outcome), its active leases (the task, when
         *     the lease expires, the last heartbeat) and how many attempts it ended as succeeded and as
         *     failed in the last hour.
         */
        get: operations["listAgentWorkers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        /**
         * The agent's queue and throughput
         * @description The agent's tasks by status now (`queue_depth`: queued and claimable now; `scheduled`:
         *     queued but waiting for `available_at`), and over the `window` (the last hour or day): how
         *     many attempts ended as succeeded and as failed, tasks finished per minute, and the 50th and
         *     95th percentiles of wait (a task's creation to its first lease) and run time (a lease to
         *     its outcome), in seconds (null when nothing was measured).
         */
        get: operations["getAgentStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The fleet's events, as pages or as a live stream
         * @description Every change of an agent or a task, and of a workspace's members, invitations, keys,
         *     webhooks and name (the audit trail), oldest first, each naming its `actor` and
         *     `workspace_id`. A user reads the events of the workspaces they are a member of (of one with
         *     `workspace_id`): all of them where they are an admin or an owner, the agent and task events
         *     (`agent.*`, `task.*`) where they are a viewer or an operator. An admin or a service key
         *     reads every event; an agent key its own agent's agent and task events (another `agent_id`
         *     answers 404; without one, it reads its own). Event ids increase; `after` (or
         *     the `Last-Event-ID` header) resumes after one: every later event, in order, none twice. Events are kept for
         *     `EVENT_RETENTION_HOURS` (168 by default): resuming after an id older than that answers 410
         *     `EVENTS_EXPIRED`, and the reader starts again from a fresh page.
         *
         *     With `Accept: application/json` (or none) the answer is a page: `meta.nextCursor` is the
         *     last id when more follow (send it as `after`). With `Accept: text/event-stream` it is a
         *     Server-Sent Events stream that stays open: `retry: <ms>` first, then each event as
         *     `id: <id>`, `event: <type>` and `data: <the Event as JSON>` followed by a blank line, and a
         *     comment line (`: keep-alive`) every `EVENTS_HEARTBEAT_MS` (15 s by default). An event
         *     committed on any instance reaches every open stream within a second. A reader that falls
         *     behind (its bounded buffer fills) is closed, as every stream is when the instance shuts
         *     down: reconnect with `Last-Event-ID`. A stream whose credential stops working (the session
         *     ends, the token expires, the key is revoked) is closed at its next keep-alive, and
         *     reconnecting is refused (401 or 403); so is the stream of a user whose workspaces or roles
         *     changed (removed, demoted, added): reconnecting reads with the new ones. Each principal may hold `EVENT_STREAMS_PER_PRINCIPAL`
         *     streams open on one instance (429 beyond).
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in user
         * @description The user behind the credential. An API key is a service principal, not a user (403).
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The endpoints of the caller's workspaces (of one with `workspace_id`), newest first
         *     (cursor-paginated); every endpoint for an admin or a service key. Secrets are never shown.
         *     An agent key may not (403).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description Registers a URL that receives a workspace's events from now on (events before this answer
         *     are never sent to it): the workspace named by `workspace_id` (its admins manage the
         *     endpoint), else the caller's personal workspace (a service key's: `service`). `types`
         *     narrows them; all types when absent. The answer holds the signing `secret`, in this answer
         *     only: store it now.
         *
         *     The URL must be `https` in production. Its host is resolved, and a URL that names or
         *     resolves to an address that is not public (loopback, private, link-local, unique-local,
         *     carrier-grade NAT, reserved, unspecified, cloud metadata) is refused with 400 naming
         *     `url`, unless the service runs with `WEBHOOK_ALLOW_PRIVATE_NETWORKS=true`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. An id that names no endpoint the caller manages answers 404. */
                webhook_id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        /** Read a webhook endpoint */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description The endpoint and its deliveries are gone; no new attempt starts (one already under way may still arrive).
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Changes its `url` (checked as on create), `types` (null: every type), `description` or
         *     `enabled`. A disabled endpoint receives nothing: events that happen while it is disabled
         *     are not sent to it later, and its pending deliveries wait until it is enabled again.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. An id that names no endpoint the caller manages answers 404. */
                webhook_id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        /**
         * List an endpoint's deliveries
         * @description One delivery per event sent to the endpoint, newest first (cursor-paginated), each with
         *     its status, its next attempt and every attempt made: when, the status code answered (if
         *     any), why it failed, and how long it took.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. An id that names no endpoint the caller manages answers 404. */
                webhook_id: components["parameters"]["WebhookId"];
                /** @description The delivery's id. An id that names no delivery of this endpoint answers 404. */
                delivery_id: components["parameters"]["WebhookDeliveryId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Schedules a new attempt of the delivery now, whatever its status: a `failed` or
         *     `succeeded` delivery is `pending` again, a `pending` one is brought forward. The attempt
         *     carries the same event with the same `webhook-id`, signed anew, and is made by whichever
         *     instance's sender takes it first: at once by this instance's, otherwise within
         *     `WEBHOOK_POLL_MS`. Should it fail, the delivery waits for the retry schedule's next delay,
         *     or is `failed` again when the schedule is spent.
         *
         *     An attempt under way (a sender holds the delivery) answers 409, and so does a disabled
         *     endpoint (it is sent nothing): enable it first. The 202 answer is the delivery as the
         *     delivery log lists it, before the attempt; read the log for its outcome.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workspaces
         * @description The workspaces the caller is a member of, each with the caller's `role`, newest first
         *     (cursor-paginated). Platform admins and service keys see every workspace (`role` is null where
         *     they are not members). An agent key may not (403).
         */
        get: operations["listWorkspaces"];
        put?: never;
        /**
         * Create a workspace
         * @description A shared workspace with the caller as its only member, an `owner`. Only people create
         *     workspaces: a service key or an agent key is refused (403).
         */
        post: operations["createWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
            };
            cookie?: never;
        };
        /**
         * Read a workspace
         * @description The workspace and the caller's `role` in it.
         */
        get: operations["getWorkspace"];
        put?: never;
        post?: never;
        /**
         * Delete a workspace
         * @description Owners delete a workspace that holds no agents (409 while it holds any); its members,
         *     invitations and webhooks go with it. A personal workspace goes only with its user (409).
         */
        delete: operations["deleteWorkspace"];
        options?: never;
        head?: never;
        /**
         * Rename a workspace
         * @description Its `name` (admins and owners).
         */
        patch: operations["updateWorkspace"];
        trace?: never;
    };
    "/api/v1/workspaces/{workspace_id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
            };
            cookie?: never;
        };
        /**
         * List a workspace's members
         * @description Its members with their roles, by when they joined (cursor-paginated).
         */
        get: operations["listWorkspaceMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace_id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
                /** @description The member's user id. A user who is not a member answers 404. */
                user_id: components["parameters"]["MemberUserId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member, or leave
         * @description A member may remove themself (leave) whatever their role; admins remove members who are not
         *     owners, owners anyone (403 otherwise). Removing the last owner is 409. The member loses the
         *     workspace's agents at once.
         */
        delete: operations["removeWorkspaceMember"];
        options?: never;
        head?: never;
        /**
         * Change a member's role
         * @description Admins give roles up to `admin` to members who are not owners; only owners make or demote
         *     owners (403 otherwise). Demoting the last owner is 409: a workspace always keeps one.
         */
        patch: operations["updateWorkspaceMember"];
        trace?: never;
    };
    "/api/v1/workspaces/{workspace_id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
            };
            cookie?: never;
        };
        /**
         * List pending invitations
         * @description The invitations not yet accepted, revoked or expired, newest first (cursor-paginated). Never their tokens.
         */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite someone by e-mail
         * @description An invitation for the user with `email` to join with `role` (only owners invite owners: 403).
         *     Its `token` is in this answer only (stored as a digest); it is accepted once, within 7 days,
         *     by the signed-in user with that e-mail (`POST /api/v1/invitations/accept`). A member with that
         *     e-mail already is 409.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
                /** @description The invitation's id. An id that names no pending invitation of the workspace answers 404. */
                invitation_id: components["parameters"]["InvitationId"];
            };
            cookie?: never;
        };
        /**
         * Read a pending invitation
         * @description A pending invitation, never its token. One accepted, revoked or expired is 404.
         */
        get: operations["getInvitation"];
        put?: never;
        post?: never;
        /**
         * Revoke an invitation
         * @description Its token no longer joins anyone. An invitation already accepted or revoked is 404.
         */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation
         * @description The signed-in user with the invitation's e-mail joins its workspace with its role. An unknown
         *     token is 404; one accepted already, revoked or expired is 409; another user's is 403; a
         *     member already is 409. A refused token changes nothing.
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with e-mail and password
         * @description Answers an access token and also sets it as the session cookie `agent_fleet_session`
         *     (HttpOnly, Secure, SameSite=Lax, path `/`, as long-lived as the token).
         *
         *     Failed attempts are limited per client (5 an hour; an IPv6 client is its /56, and an
         *     IPv4-mapped address is its IPv4 address) and per account (a back-off after 5; 429 beyond
         *     either). The account's limit is for strangers: a client that has signed in to the account
         *     before keeps signing in whatever others try. Each sign-in sets the device cookie
         *     `agent_fleet_device` (HttpOnly, SameSite=Strict, Secure when the request came over HTTPS,
         *     path `/api/auth/login`, 30 days by default): sent back with the password of the account it
         *     names, it counts the attempt against that device alone, which is itself locked out when it
         *     fails too often. A client without cookies is known by its address (its /56 for IPv6) for as
         *     long once it has signed in from there.
         */
        post: operations["logIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out
         * @description Ends the session of the credential sent (the bearer token when an `Authorization` header
         *     is present, the session cookie otherwise) on every instance at once: its access tokens and
         *     refresh token stop working. Clears the session cookie. Without a credential, or with one
         *     that no longer works, it only clears the cookie (204). With the session cookie, the
         *     `Origin` must be a trusted one (403 otherwise), as for every cookie-authenticated change.
         */
        post: operations["logOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out everywhere
         * @description Ends every session of the signed-in user, this one included, on every instance: all their
         *     access tokens, refresh tokens and session cookies stop working. Clears the session cookie.
         *     Only a user's bearer token or session cookie is accepted (an API key names no sessions).
         */
        post: operations["logOutEverywhere"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A configured provider's id (`OAUTH_PROVIDERS`); any other value answers 404. */
                provider: string;
            };
            cookie?: never;
        };
        /**
         * Start third-party sign-in (OpenID Connect)
         * @description A browser navigation. Redirects to the provider's authorization endpoint (authorization
         *     code flow) with `client_id`, `redirect_uri` (exactly `PUBLIC_URL` +
         *     `/api/auth/oauth/{provider}/callback`), `response_type=code`, `scope`, `state` (32 random
         *     bytes, hex), `nonce`, and PKCE `code_challenge` with `code_challenge_method=S256` (for
         *     every client, confidential ones too, as RFC 9700 recommends).
         *
         *     Sets two cookies, both HttpOnly, Secure, SameSite=Lax, path `/api/auth/oauth`, 10
         *     minutes: `oauth_state` (the state) and `oauth_flow`, an encrypted token (JWE) holding the
         *     PKCE verifier, the nonce, the state, the provider and the return path, which the page can
         *     never read. When `returnTo` is not a path of this service, or the provider cannot be
         *     reached, the browser goes to `/login?error=oauth_failed` instead and no cookie is set.
         */
        get: operations["startOAuthSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth/{provider}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A configured provider's id; any other value answers 404. */
                provider: string;
            };
            cookie?: never;
        };
        /**
         * Third-party sign-in callback (the registered redirect URI)
         * @description Where the provider sends the browser back. In this order: the `state` parameter must be
         *     present and equal to the `oauth_state` cookie and to the state sealed in `oauth_flow`,
         *     which must name this provider (otherwise: a state validation failure); a provider `error`
         *     ends the flow; the code is exchanged on the backend (the client secret only for
         *     confidential clients, the PKCE verifier always); the ID token's signature is checked
         *     against the provider's JWKS, and its issuer, audience, expiry and nonce. The claims the
         *     service stores are held to its own rules, lengths first: `sub` 1 to 255 characters without
         *     control characters, `email` an address `Email` accepts (at most 320 characters); otherwise
         *     the sign-in fails with reason `invalid_claims` (a `name` is cut to 100 characters). The
         *     user is found by (provider, subject), or created from an e-mail the provider says is
         *     verified (`email_verified`). A provider identity is never linked into an existing local
         *     account by its e-mail: when a local account has the address the sign-in fails with reason
         *     `account_exists` (its owner signs in with the password and links the provider with
         *     `POST /api/v1/me/connections/{provider}`); an unverified address fails with
         *     `email_not_verified`, none with `missing_email`. The provider's tokens are stored encrypted
         *     (AES-256-GCM). All of that is one transaction: a failure leaves nothing half-created.
         *
         *     On success the session cookie `agent_fleet_session` is set (as by `POST /api/auth/login`)
         *     and the browser goes to the sign-in's `returnTo` (a path of this service, default `/`).
         *     `error=access_denied` goes to `/login?cancelled=true`; every other failure to
         *     `/login?error=oauth_failed`, with `&reason=` one of `account_exists`,
         *     `email_not_verified`, `missing_email`, `invalid_claims` when the person can act on it.
         *
         *     A flow started by `POST /api/v1/me/connections/{provider}` links instead: the browser
         *     must still carry the session cookie of the user who started it (`link_session_mismatch`),
         *     the provider identity must not belong to another user (`account_conflict`), and the user
         *     must have no other account at this provider (`already_linked`). No new session is issued;
         *     success goes to `returnTo`, a cancel to `/?link=cancelled`, a failure to
         *     `/?link=failed&reason=<reason>`.
         *
         *     The check cookies are cleared on every outcome. Failures are logged with the error text,
         *     client IP and provider, and counted in `/metrics`.
         */
        get: operations["completeOAuthSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's linked sign-in providers
         * @description One item per provider account linked to the caller, with the state of the stored provider
         *     access token: `valid` (expiry more than 5 minutes away, or not given by the provider),
         *     `expiring` (within 5 minutes: the next use refreshes it), `expired`, or `none`. Token
         *     values are never shown. An API key is a service principal, not a user (403).
         */
        get: operations["listMyConnections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/connections/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A configured provider's id (`OAUTH_PROVIDERS`); any other value answers 404. */
                provider: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link a sign-in provider to the caller's account
         * @description Starts the authorization code flow of `GET /api/auth/oauth/{provider}` (state cookie,
         *     PKCE, nonce, the sealed check cookie), with the caller's id sealed in the check cookie: the
         *     callback then links the provider account to the caller instead of signing anyone in. This
         *     is the only way a provider account joins an existing account (never by e-mail).
         *
         *     It is a browser journey: the person logs in at the provider, and the callback requires
         *     the session cookie of the same user in that browser, so the flow is started by a page of
         *     this service (the session cookie with an allowed `Origin`, as every change made with it).
         *     An HTML form gets `303 See Other` to the provider's authorization URL. A script asks with
         *     `Accept: application/json` and gets `200` with that URL in `data.location`, then sends
         *     the browser there itself (`fetch` cannot follow a redirect into another origin's login
         *     page, and a page's `form-action 'self'` CSP blocks a form whose redirect leaves the
         *     origin). When `returnTo` is not a path of this service or the provider cannot be reached,
         *     the location is `/?link=failed&reason=<reason>` and no cookie is set. An API key is a
         *     service principal, not a user (403).
         */
        post: operations["linkMyConnection"];
        /**
         * Unlink a sign-in provider from the caller's account
         * @description Removes the link and the provider's stored tokens. 404 when the caller has no link to this
         *     provider; 409 when it is the caller's only way to sign in (no password and no other
         *     provider). A connection has no version of its own, so there is no `If-Match` here. An API
         *     key is a service principal, not a user (403).
         */
        delete: operations["unlinkMyConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign-in page (HTML)
         * @description A small HTML page, served outside the request validator like the docs pages: one button
         *     per configured provider (`/api/auth/oauth/{provider}`), the e-mail and password form of
         *     `POST /api/auth/login` (an external script, no inline script: it passes the service's
         *     Content-Security-Policy), and a message for `cancelled=true` and for
         *     `error=oauth_failed` (a more precise one for the `reason`s the person can act on). After
         *     the password sign-in the script goes to `returnTo` only when it is a path of this origin
         *     (checked again in the page), otherwise to `/`. No token ever reaches the page's storage.
         */
        get: operations["getLoginPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sign-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign-up page (HTML)
         * @description The form of `POST /api/v1/users` (name, e-mail, password), linked from `/login`. Once the
         *     account is made, its script signs in with `POST /api/auth/login` and goes to `returnTo`
         *     (checked as on `/login`), otherwise to `/`. Served outside the request validator like the
         *     other pages; no inline script or style.
         */
        get: operations["getSignUpPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Home page (HTML)
         * @description The fleet console for whoever is signed in (by the session cookie): their agents with
         *     their status and tasks counted by status; an agent's tasks, live, with their errors and
         *     results, creating and cancelling tasks, and its keys (a new secret is shown once); the live
         *     event feed; webhooks with their deliveries. The page's script reaches the API only through
         *     the typed client (`@agent-fleet/client`) and follows `GET /api/v1/events`. Also who is
         *     signed in with a sign-out button, and each configured provider with a button to link it
         *     (`POST /api/v1/me/connections/{provider}`) or unlink it (`DELETE`, offered only when
         *     another way to sign in remains). Without a valid session it redirects to `/login`. Served
         *     outside the request validator like the docs pages.
         */
        get: operations["getHomePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers 200 while the process serves HTTP. Does no I/O.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description 200 while the instance should take traffic: the database answers (`ready`, or `degraded`
         *     when Redis does not). 503 while it is draining after SIGTERM or the database is down.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document (JSON)
         * @description The OpenAPI document the service validates against, as JSON. Served outside the request validator.
         */
        get: operations["getApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Interactive reference (Swagger UI, HTML)
         * @description Swagger UI for this document, served from installed packages (no CDN) under the service's own Content-Security-Policy.
         */
        get: operations["getSwaggerUi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's name. */
                file: components["parameters"]["StaticFile"];
            };
            cookie?: never;
        };
        /**
         * A file of the Swagger UI page
         * @description The page's scripts, style sheet and icons (`swagger-ui-bundle.js`, `swagger-ui-standalone-preset.js`, `swagger-ui-init.js`, `swagger-ui.css`, `favicon-16x16.png`, `favicon-32x32.png`). Any other name answers 404.
         */
        get: operations["getSwaggerUiAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/redoc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reference (ReDoc, HTML)
         * @description ReDoc for this document, served from installed packages (no CDN) under the service's own Content-Security-Policy.
         */
        get: operations["getRedoc"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/client": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The typed client's README (HTML)
         * @description The README of `@agent-fleet/client`, the typed TypeScript client generated from this
         *     document, rendered from Markdown once at start (the document's `externalDocs`). Raw HTML in
         *     the Markdown is shown as text and links keep to `http`, `https`, `mailto` and this service,
         *     so the page holds no script and passes the service's Content-Security-Policy. It links back
         *     to `/docs` and `/redoc`. Served outside the request validator like the docs pages.
         */
        get: operations["getClientReadme"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/redoc/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's name. */
                file: components["parameters"]["StaticFile"];
            };
            cookie?: never;
        };
        /**
         * A file of the ReDoc page
         * @description `redoc.standalone.js`; any other name answers 404.
         */
        get: operations["getRedocAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's name. */
                file: components["parameters"]["StaticFile"];
            };
            cookie?: never;
        };
        /**
         * A script, style sheet or icon of the pages
         * @description The bundled scripts, style sheets and icons of `/login`, `/sign-up`, `/` (the console),
         *     `/client` and the docs pages' short start. Each name carries a hash of the file's content
         *     (`console-5GQ2ZT4N.js`), so an answer may be kept for a year; the pages link the current
         *     names. Any other name answers 404.
         */
        get: operations["getPageAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/favicon.ico": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The service's icon
         * @description What a browser asks for when a document names no icon (a JSON answer opened in a tab); the pages name theirs (`/assets/{file}`).
         */
        get: operations["getFavicon"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Request latency, status and size, rate-limit hits, refused requests and sign-in failure
         *     counters, in Prometheus's text format. Never rate-limited.
         *
         *     On this listener only with `Authorization: Bearer <METRICS_TOKEN>`; without a token
         *     configured it is not served here at all (404, as an unknown path). The metrics listener
         *     (`METRICS_PORT` on `METRICS_HOST`, a private interface) serves the same text without a
         *     token.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    fleetEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * One event, delivered to a webhook endpoint
         * @description What the service sends to each enabled endpoint (`POST /api/v1/webhooks`) for every event
         *     it may receive: the event as `GET /api/v1/events` shows it, signed as the Standard
         *     Webhooks specification says. Verify before trusting: compute the HMAC-SHA256 of
         *     `{webhook-id}.{webhook-timestamp}.{raw body}` keyed by the secret's bytes (base64 after
         *     `whsec_`), compare it in constant time with each `v1,` signature of `webhook-signature`,
         *     and refuse a timestamp more than a few minutes off (any Standard Webhooks library does
         *     all of it). The same event keeps its `webhook-id` on every retry: use it to drop
         *     duplicates, since delivery is at least once.
         *
         *     Answer any 2xx within 10 seconds to acknowledge. Anything else (another status, a
         *     redirect, which is not followed, a timeout, a refused connection) is tried again after 5
         *     s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then the delivery is marked failed; each
         *     attempt shows in `GET /api/v1/webhooks/{webhook_id}/deliveries`.
         */
        post: operations["receiveFleetEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description The agent: the one definition of each field an agent has. By itself it requires no field
         *     and refuses none; each representation (`Agent`, `AgentResource`, `AgentFieldset`) composes
         *     it with `allOf`, names the fields it requires and closes itself with
         *     `unevaluatedProperties: false`. A field is added, changed or removed here, once, for every
         *     operation of both surfaces.
         */
        AgentEntity: {
            id?: components["schemas"]["Id"];
            /** @description The user who created the agent; null when an API key (service principal) did. */
            owner_id?: components["schemas"]["NullableId"];
            /** @description The workspace the agent belongs to; its tasks, leases, keys and events follow it. */
            workspace_id?: components["schemas"]["Id"];
            name?: components["schemas"]["AgentName"];
            type?: components["schemas"]["AgentType"];
            status?: components["schemas"]["AgentStatus"];
            created_at?: components["schemas"]["Timestamp"];
            updated_at?: components["schemas"]["Timestamp"];
            max_concurrency?: components["schemas"]["AgentMaxConcurrency"];
        };
        /** @description An agent (the specification's `AgentResponse`), in full; its fields are `AgentEntity`'s. */
        Agent: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["AgentEntity"], "id" | "owner_id" | "workspace_id" | "name" | "type" | "status" | "created_at" | "updated_at" | "max_concurrency">;
        /** @description What `include=` adds to an agent on the conventions surface. */
        AgentIncludes: {
            /** @description With `include=tasks`, the agent's 10 newest tasks, newest first. */
            tasks?: components["schemas"]["TaskSummary"][];
            task_counts?: components["schemas"]["TaskCounts"];
        };
        /** @description With `include=task_counts`, how many of the agent's tasks are in each status (every status is named, 0 included). */
        TaskCounts: {
            /** @description Tasks in status `queued`. */
            queued: number;
            /** @description Tasks in status `running`. */
            running: number;
            /** @description Tasks in status `succeeded`. */
            succeeded: number;
            /** @description Tasks in status `failed`. */
            failed: number;
            /** @description Tasks in status `cancelled`. */
            cancelled: number;
        };
        /**
         * @description An agent on the conventions surface, in full: every field of `AgentEntity`, and `tasks` with
         *     `include=tasks` (`task_counts` with `include=task_counts`). What `fields` answers is an `AgentFieldset`.
         */
        AgentResource: {
            id: components["schemas"]["Id"];
        } & (WithRequired<components["schemas"]["AgentEntity"], "id" | "owner_id" | "workspace_id" | "name" | "type" | "status" | "created_at" | "updated_at" | "max_concurrency"> & components["schemas"]["AgentIncludes"]);
        /**
         * @description What `fields=` answers for an agent (sparse fieldset): `id` always, the fields named, and `tasks` with `include=tasks` (`task_counts` with `include=task_counts`). Any field not named is
         *     absent; a request without `fields` gets the full `AgentResource`.
         */
        AgentFieldset: {
            id: components["schemas"]["Id"];
        } & (WithRequired<components["schemas"]["AgentEntity"], "id"> & components["schemas"]["AgentIncludes"]);
        /**
         * @description The task: the one definition of each field a task has. By itself it requires no field and
         *     refuses none; each representation (`Task`, `TaskResource`, `TaskFieldset`, `TaskSummary`)
         *     composes it with `allOf`, names the fields it requires and closes itself with
         *     `unevaluatedProperties: false`. A field is added, changed or removed here, once, for every
         *     operation of both surfaces.
         */
        TaskEntity: {
            id?: components["schemas"]["Id"];
            /** @description The agent the task belongs to. */
            agent_id?: components["schemas"]["Id"];
            title?: components["schemas"]["TaskTitle"];
            description?: components["schemas"]["TaskDescription"];
            input?: components["schemas"]["TaskInput"];
            priority?: components["schemas"]["TaskPriority"];
            status?: components["schemas"]["TaskStatus"];
            result?: components["schemas"]["TaskResult"];
            error?: components["schemas"]["TaskErrorText"];
            created_at?: components["schemas"]["Timestamp"];
            updated_at?: components["schemas"]["Timestamp"];
            started_at?: components["schemas"]["NullableTimestamp"];
            finished_at?: components["schemas"]["NullableTimestamp"];
            /** @description How many times a worker has claimed the task (0 until the first lease). */
            attempts?: number;
            /** @description How many leases the task may take before it fails for good (1 to 20 when created; each retry allows one more, up to 1,000). */
            max_attempts?: number;
            /** @description When a queued task can next be claimed (later than now while a retry backs off). */
            available_at?: components["schemas"]["Timestamp"];
            /** @description What its worker last reported; null until it reports. */
            progress?: components["schemas"]["TaskProgress"] | null;
            /** @description The active lease holding the task; null when no worker holds it. */
            lease_id?: components["schemas"]["NullableId"];
            /** @description The error of its latest failed or expired attempt, kept when the task is queued again (and after it succeeds); null when none failed. */
            last_error?: components["schemas"]["TaskErrorText"];
            /** @description What its workers reported using, summed over its attempts. */
            usage?: components["schemas"]["Usage"];
            /**
             * @description When the task was asked to run (`run_at` on create): it is not leased before. null for a
             *     task queued to run at once, as a schedule's tasks are. While `run_at` is ahead, the task
             *     is `queued` with `available_at` at `run_at`, and the agent's stats count it as `scheduled`.
             */
            run_at?: components["schemas"]["NullableTimestamp"];
            /** @description How long the task may take from its first lease before it fails with `deadline exceeded`; null for no deadline. */
            timeout_seconds?: components["schemas"]["TaskTimeout"] | null;
            /** @description When the task fails with `deadline exceeded` unless it has finished (its first lease plus `timeout_seconds`); null before its first lease, or without a timeout. */
            deadline_at?: components["schemas"]["NullableTimestamp"];
            /** @description The schedule whose firing created the task; null for a task created directly. */
            schedule_id?: components["schemas"]["NullableId"];
        };
        /** @description A task, in full; its fields are `TaskEntity`'s. */
        Task: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["TaskEntity"], "id" | "agent_id" | "title" | "description" | "input" | "priority" | "status" | "result" | "error" | "created_at" | "updated_at" | "started_at" | "finished_at" | "attempts" | "max_attempts" | "available_at" | "progress" | "lease_id" | "last_error" | "usage" | "run_at" | "timeout_seconds" | "deadline_at" | "schedule_id">;
        /**
         * @description A task on the conventions surface, in full: the same as `Task`. What `fields` answers is a
         *     `TaskFieldset`.
         */
        TaskResource: components["schemas"]["Task"];
        /**
         * @description What `fields=` answers for a task (sparse fieldset): `id` always and the fields named. Any field not named is
         *     absent; a request without `fields` gets the full `TaskResource`.
         */
        TaskFieldset: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["TaskEntity"], "id">;
        /**
         * @description A task as `include=tasks` embeds it: its state, without the description, input, result
         *     or error that can make a task large (read the task itself for those), nor the `agent_id`
         *     of the agent it is embedded in.
         */
        TaskSummary: {
            id: components["schemas"]["Id"];
            /** @description Never present: a TaskSummary leaves `agent_id` out. */
            agent_id?: unknown;
            /** @description Never present: a TaskSummary leaves `description` out. */
            description?: unknown;
            /** @description Never present: a TaskSummary leaves `input` out. */
            input?: unknown;
            /** @description Never present: a TaskSummary leaves `result` out. */
            result?: unknown;
            /** @description Never present: a TaskSummary leaves `error` out. */
            error?: unknown;
        } & WithRequired<components["schemas"]["TaskEntity"], "id" | "title" | "status" | "priority" | "created_at" | "updated_at" | "started_at" | "finished_at">;
        /**
         * @description The user: the one definition of each field a user has (never the password or its hash).
         *     By itself it requires no field and refuses none; each representation (`User`,
         *     `UserResource`, `UserFieldset`) composes it with `allOf`, names the fields it requires and
         *     closes itself with `unevaluatedProperties: false`.
         */
        UserEntity: {
            id?: components["schemas"]["Id"];
            name?: components["schemas"]["UserName"];
            email?: components["schemas"]["Email"];
            age?: components["schemas"]["NullableAge"];
            role?: components["schemas"]["UserRole"];
            created_at?: components["schemas"]["Timestamp"];
            updated_at?: components["schemas"]["Timestamp"];
        };
        /** @description A user, in full; its fields are `UserEntity`'s. */
        User: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["UserEntity"], "id" | "name" | "email" | "age" | "role" | "created_at" | "updated_at">;
        /** @description What `include=` adds to a user. */
        UserIncludes: {
            /** @description With `include=posts`, the user's 10 newest posts, newest first. */
            posts?: components["schemas"]["PostSummary"][];
        };
        /**
         * @description A user on the conventions surface, in full: every field of `UserEntity`, and `posts` with
         *     `include=posts`. What `fields` answers is a `UserFieldset`.
         */
        UserResource: {
            id: components["schemas"]["Id"];
        } & (WithRequired<components["schemas"]["UserEntity"], "id" | "name" | "email" | "age" | "role" | "created_at" | "updated_at"> & components["schemas"]["UserIncludes"]);
        /**
         * @description What `fields=` answers for a user (sparse fieldset): `id` always, the fields named, and `posts` with `include=posts`. Any field not named is
         *     absent; a request without `fields` gets the full `UserResource`.
         */
        UserFieldset: {
            id: components["schemas"]["Id"];
        } & (WithRequired<components["schemas"]["UserEntity"], "id"> & components["schemas"]["UserIncludes"]);
        /**
         * @description The post: the one definition of each field a post has. By itself it requires no field and
         *     refuses none; each representation (`Post`, `PostResource`, `PostFieldset`, `PostSummary`)
         *     composes it with `allOf`, names the fields it requires and closes itself with
         *     `unevaluatedProperties: false`.
         */
        PostEntity: {
            id?: components["schemas"]["Id"];
            /** @description The post's author. */
            user_id?: components["schemas"]["Id"];
            title?: components["schemas"]["PostTitle"];
            body?: components["schemas"]["PostBody"];
            created_at?: components["schemas"]["Timestamp"];
            updated_at?: components["schemas"]["Timestamp"];
        };
        /** @description A post, in full; its fields are `PostEntity`'s. */
        Post: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["PostEntity"], "id" | "user_id" | "title" | "body" | "created_at" | "updated_at">;
        /**
         * @description A post on the conventions surface, in full: the same as `Post`. What `fields` answers is a
         *     `PostFieldset`.
         */
        PostResource: components["schemas"]["Post"];
        /**
         * @description What `fields=` answers for a post (sparse fieldset): `id` always and the fields named. Any field not named is
         *     absent; a request without `fields` gets the full `PostResource`.
         */
        PostFieldset: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["PostEntity"], "id">;
        /** @description A post as `include=posts` embeds it, without its body (list the user's posts for that) nor the `user_id` of the user it is embedded in. */
        PostSummary: {
            id: components["schemas"]["Id"];
            /** @description Never present: a PostSummary leaves `user_id` out. */
            user_id?: unknown;
            /** @description Never present: a PostSummary leaves `body` out. */
            body?: unknown;
        } & WithRequired<components["schemas"]["PostEntity"], "id" | "title" | "created_at" | "updated_at">;
        AgentItem: {
            /** @description The agent: in full, or only the `fields` asked for. */
            data: components["schemas"]["AgentResource"] | components["schemas"]["AgentFieldset"];
            meta: components["schemas"]["Meta"];
        };
        TaskItem: {
            /** @description The task: in full, or only the `fields` asked for. */
            data: components["schemas"]["TaskResource"] | components["schemas"]["TaskFieldset"];
            meta: components["schemas"]["Meta"];
        };
        UserItem: {
            /** @description The user: in full, or only the `fields` asked for. */
            data: components["schemas"]["UserResource"] | components["schemas"]["UserFieldset"];
            meta: components["schemas"]["Meta"];
        };
        PostItem: {
            /** @description The post. */
            data: components["schemas"]["Post"];
            meta: components["schemas"]["Meta"];
        };
        AgentCollection: {
            /** @description The agents of this page, in `sort` order (newest first by default): each in full, or only the `fields` asked for. */
            data: (components["schemas"]["AgentResource"] | components["schemas"]["AgentFieldset"])[];
            meta: components["schemas"]["CursorMeta"];
        };
        TaskCollection: {
            /** @description The tasks of this page, in `sort` order (newest first by default): each in full, or only the `fields` asked for. */
            data: (components["schemas"]["TaskResource"] | components["schemas"]["TaskFieldset"])[];
            meta: components["schemas"]["CursorMeta"];
        };
        PostCollection: {
            /** @description The posts of this page, in `sort` order (newest first by default): each in full, or only the `fields` asked for. */
            data: (components["schemas"]["PostResource"] | components["schemas"]["PostFieldset"])[];
            meta: components["schemas"]["CursorMeta"];
        };
        UserPage: {
            /** @description The users of this page, in `sort` order: each in full, or only the `fields` asked for. */
            data: (components["schemas"]["UserResource"] | components["schemas"]["UserFieldset"])[];
            meta: components["schemas"]["PageMeta"];
        };
        /** @description Where a page of a cursor-paginated collection ends. */
        CursorMeta: {
            /** @description The id of the last item when more exist, else null. */
            nextCursor: string | null;
            /** @description Whether more items follow; `nextCursor` then continues after this page. */
            hasMore: boolean;
        };
        /** @description Where a page of a page-numbered collection is: page `page` of `limit` items, of `total` matching items. */
        PageMeta: {
            /** @description How many items match, over all pages. */
            total: number;
            /** @description This page's number, from 1. */
            page: number;
            /** @description The page size that applied. */
            limit: number;
        };
        PostCreate: {
            title: components["schemas"]["PostTitle"];
            /** @default  */
            body?: components["schemas"]["PostBody"];
        };
        UserReplace: {
            name: components["schemas"]["UserName"];
            email: components["schemas"]["Email"];
            /** @description The user's age in years (0 to 150); absent or null clears it. */
            age?: number | null;
            password?: components["schemas"]["Password"];
            current_password?: components["schemas"]["CurrentPassword"];
        };
        UserUpdate: {
            name?: components["schemas"]["UserName"];
            email?: components["schemas"]["Email"];
            /** @description The user's age in years (0 to 150); null clears it. */
            age?: number | null;
            password?: components["schemas"]["Password"];
            current_password?: components["schemas"]["CurrentPassword"];
        };
        /** @description Comparisons on a text field (`filter[field][op]=value`); text compares in the order of the database. */
        StringFilter: {
            /** @description Equal to this text. */
            eq?: string;
            /** @description Not equal to this text. */
            ne?: string;
            /** @description Sorts after this text. */
            gt?: string;
            /** @description Equal to this text or sorts after it. */
            gte?: string;
            /** @description Sorts before this text. */
            lt?: string;
            /** @description Equal to this text or sorts before it. */
            lte?: string;
            /** @description Equal to one of these comma-separated values. */
            in?: string;
            /** @description Contains this text anywhere, ignoring the case of letters (on SQLite, of ASCII letters only); `%` and `_` are plain characters. */
            contains?: string;
        };
        /** @description Comparisons on an integer field (`filter[field][op]=value`). */
        IntegerFilter: {
            /** @description Equal to this number. */
            eq?: number;
            /** @description Not equal to this number. */
            ne?: number;
            /** @description Greater than this number. */
            gt?: number;
            /** @description Greater than or equal to this number. */
            gte?: number;
            /** @description Less than this number. */
            lt?: number;
            /** @description Less than or equal to this number. */
            lte?: number;
            /** @description Equal to one of these comma-separated integers. */
            in?: string;
        };
        /** @description Comparisons on a timestamp (`filter[field][op]=value`, an ISO 8601 date-time). */
        TimeFilter: {
            /**
             * Format: date-time
             * @description At exactly this instant.
             */
            eq?: string;
            /**
             * Format: date-time
             * @description At any other instant.
             */
            ne?: string;
            /**
             * Format: date-time
             * @description After this instant.
             */
            gt?: string;
            /**
             * Format: date-time
             * @description At or after this instant.
             */
            gte?: string;
            /**
             * Format: date-time
             * @description Before this instant.
             */
            lt?: string;
            /**
             * Format: date-time
             * @description At or before this instant.
             */
            lte?: string;
        };
        /** @description Comparisons on an agent's `type` (`filter[field][op]=value`). */
        AgentTypeFilter: {
            /**
             * @description Equal to this value.
             * @enum {string}
             */
            eq?: "type_a" | "type_b" | "type_c";
            /**
             * @description Any value but this one.
             * @enum {string}
             */
            ne?: "type_a" | "type_b" | "type_c";
            /** @description One of these comma-separated values. */
            in?: string;
        };
        /** @description Comparisons on an agent's `status` (`filter[field][op]=value`). */
        AgentStatusFilter: {
            /**
             * @description Equal to this value.
             * @enum {string}
             */
            eq?: "idle" | "running" | "paused" | "error";
            /**
             * @description Any value but this one.
             * @enum {string}
             */
            ne?: "idle" | "running" | "paused" | "error";
            /** @description One of these comma-separated values. */
            in?: string;
        };
        /** @description Comparisons on a task's `status` (`filter[field][op]=value`). */
        TaskStatusFilter: {
            /**
             * @description Equal to this value.
             * @enum {string}
             */
            eq?: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            /**
             * @description Any value but this one.
             * @enum {string}
             */
            ne?: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            /** @description One of these comma-separated values. */
            in?: string;
        };
        /** @description Comparisons on a user's `role` (`filter[field][op]=value`). */
        UserRoleFilter: {
            /**
             * @description Equal to this value.
             * @enum {string}
             */
            eq?: "user" | "admin";
            /**
             * @description Any value but this one.
             * @enum {string}
             */
            ne?: "user" | "admin";
            /** @description One of these comma-separated values. */
            in?: string;
        };
        /**
         * @description The kind of agent (neutral stand-ins for the three accepted values).
         * @enum {string}
         */
        AgentType: "type_a" | "type_b" | "type_c";
        /**
         * @description See the `agents` tag for the transitions.
         * @enum {string}
         */
        AgentStatus: "idle" | "running" | "paused" | "error";
        /** @description 1 to 100 characters (Unicode code points), not only white space. */
        AgentName: string;
        /** @description Input for creating an agent on the conventions surface. */
        AgentCreateInWorkspace: {
            /**
             * @description The workspace it belongs to (the caller needs `operator` there); the caller's personal
             *     workspace when absent (a service key's: the `service` workspace).
             */
            workspace_id?: components["schemas"]["Id"];
            name: components["schemas"]["AgentName"];
            type: components["schemas"]["AgentType"];
            /** @default null */
            max_concurrency?: components["schemas"]["AgentMaxConcurrency"];
        };
        /** @description Input for creating and for replacing an agent. */
        AgentCreate: {
            name: components["schemas"]["AgentName"];
            type: components["schemas"]["AgentType"];
            /** @default null */
            max_concurrency?: components["schemas"]["AgentMaxConcurrency"];
        };
        /**
         * @description The most tasks of the agent that may run at once, 1 to 1,000; null for no limit. A claim
         *     beyond it waits as on an empty queue (a long poll is woken when a running task ends).
         */
        AgentMaxConcurrency: number | null;
        /** @description A partial update; at least one field. */
        AgentUpdate: {
            name?: components["schemas"]["AgentName"];
            type?: components["schemas"]["AgentType"];
            status?: components["schemas"]["AgentStatus"];
            max_concurrency?: components["schemas"]["AgentMaxConcurrency"];
        };
        /**
         * @description See the `tasks` tag for the transitions.
         * @enum {string}
         */
        TaskStatus: "queued" | "running" | "succeeded" | "failed" | "cancelled";
        /** @description 1 to 200 characters, not only white space. */
        TaskTitle: string;
        /** @description Free text about the task, up to 10,000 characters; null when there is none. */
        TaskDescription: string | null;
        /** @description 0 (lowest) to 10 (highest). */
        TaskPriority: number;
        /** @description How many leases the task may take before it fails for good, 1 to 20. */
        TaskMaxAttempts: number;
        TaskCreate: {
            title: components["schemas"]["TaskTitle"];
            description?: components["schemas"]["TaskDescription"];
            /** @description Free-form input for the agent, at most 65,536 bytes as JSON (400 beyond). */
            input?: {
                [key: string]: unknown;
            } | null;
            /** @default 5 */
            priority?: components["schemas"]["TaskPriority"];
            /** @default 3 */
            max_attempts?: components["schemas"]["TaskMaxAttempts"];
            /**
             * @description Not leased before this time: the task is `queued` with `available_at` at `run_at`, and a
             *     waiting claim is woken for it. At most a minute in the past and 365 days ahead (400
             *     otherwise).
             */
            run_at?: components["schemas"]["Timestamp"];
            timeout_seconds?: components["schemas"]["TaskTimeout"];
        };
        /**
         * @description Seconds the task may take from its first lease, across all its attempts, 1 to 604,800 (7
         *     days). Past it the task fails with `deadline exceeded`, its active lease ends as
         *     `timed_out`, and its worker's next call answers 409 `LEASE_LOST`.
         */
        TaskTimeout: number;
        /** @description A partial update; at least one field. */
        TaskUpdate: {
            title?: components["schemas"]["TaskTitle"];
            description?: components["schemas"]["TaskDescription"];
            priority?: components["schemas"]["TaskPriority"];
            status?: components["schemas"]["TaskStatus"];
            /** @description The outcome, any JSON value (at most 65,536 bytes); only with `status` `succeeded`. */
            result?: unknown;
            /** @description Why the task failed; only with `status` `failed`. */
            error?: string;
        };
        /** @description RFC 6749 section 4.3.2. Unknown parameters are ignored, as the RFC requires. */
        TokenRequest: {
            /**
             * @description `password` (with `username` and `password`), `refresh_token` (with `refresh_token`) or `client_credentials` (an agent key: `client_id` and `client_secret`, or HTTP Basic). Any other value is 400 `unsupported_grant_type`.
             * @enum {string}
             */
            grant_type: "password" | "refresh_token" | "client_credentials";
            /** @description A refresh token from an earlier answer of this endpoint (grant_type `refresh_token`). */
            refresh_token?: string;
            /** @description The user's e-mail. */
            username?: string;
            /**
             * Format: password
             * @description The user's password (grant_type `password`).
             */
            password?: string;
            /** @description Accepted and ignored: a user's token carries no scopes, and an agent's carries its key's. */
            scope?: string;
            /** @description grant_type `client_credentials`: the agent key's `id`. Ignored by the other grants, whose first-party clients are not registered. */
            client_id?: string;
            /** @description grant_type `client_credentials`: the agent key's secret. Ignored by the other grants. */
            client_secret?: string;
        };
        TokenResponse: {
            /** @description The access token, a JWT: send it as `Authorization: Bearer <access_token>`. */
            access_token: string;
            /**
             * @description Always `bearer`.
             * @constant
             */
            token_type: "bearer";
            /** @description Seconds until the token expires. */
            expires_in: number;
            /**
             * @description Present on answers of `/token` only. Single use: each refresh answers a new one, and
             *     presenting a spent one again ends the whole session (RFC 9700 section 4.14.2). Lives as
             *     long as the session (`REFRESH_TOKEN_TTL`, 30 days by default).
             */
            refresh_token?: string;
        };
        /**
         * @description Every error of the token endpoint, in RFC 6749 section 5.2's shape. Protocol errors use
         *     its codes (400); the endpoint's other failures use the registered codes of section
         *     4.1.2.1: `temporarily_unavailable` (429, 503) and `server_error` (500).
         */
        OAuthError: {
            /**
             * @description The error code: RFC 6749 section 5.2's for protocol errors, section 4.1.2.1's `temporarily_unavailable` and `server_error` for the endpoint's other failures.
             * @enum {string}
             */
            error: "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope" | "temporarily_unavailable" | "server_error";
            /** @description What went wrong, in words for people. */
            error_description?: string;
        };
        LoginRequest: {
            /** @description The account's e-mail address (compared without case and surrounding white space). */
            email: string;
            /**
             * Format: password
             * @description The account's password.
             */
            password: string;
        };
        TokenEnvelope: {
            /** @description The access token, as `/token` answers it but without a refresh token (the same token is also set as the session cookie). */
            data: components["schemas"]["TokenResponse"];
            meta: components["schemas"]["Meta"];
        };
        /**
         * @description `user`, or `admin`: an admin sees and changes every user's agents, tasks and posts, and lists users.
         * @enum {string}
         */
        UserRole: "user" | "admin";
        UserCreate: {
            name: components["schemas"]["UserName"];
            email: components["schemas"]["Email"];
            password: components["schemas"]["Password"];
            /** @description The user's age in years (0 to 150); optional. */
            age?: number;
        };
        UserEnvelope: {
            /** @description The user. */
            data: components["schemas"]["User"];
            meta: components["schemas"]["Meta"];
        };
        /** @description About the answer: when it was produced. */
        Meta: {
            timestamp: components["schemas"]["Timestamp"];
        };
        /** @description The conventions surface's error envelope (everything under `/api`). */
        ApiError: {
            error: components["schemas"]["ApiErrorObject"];
        };
        /** @description What went wrong, inside the conventions surface's error envelope. Each response narrows `code` to the codes its status carries. */
        ApiErrorObject: {
            /**
             * @description The error's code (UPPER_SNAKE). Each response narrows it to the codes its status carries.
             * @enum {string}
             */
            code: "VALIDATION_ERROR" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "QUOTA_EXCEEDED" | "PRECONDITION_FAILED" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "RATE_LIMIT_EXCEEDED" | "INTERNAL_ERROR" | "REQUEST_TIMEOUT" | "EXPECTATION_FAILED" | "HEADERS_TOO_LARGE" | "SERVICE_UNAVAILABLE";
            /** @description What went wrong, in words for people (500: always `Internal Server Error`); match on `code`, not on this text. */
            message: string;
            /** @description For validation, a list of `{field, message}` (the first 20); otherwise any value. */
            details?: unknown;
            /** @description How many more problems there were than `details` lists (only when there were more than 20). */
            detailsOmitted?: number;
            /** @description The request's `X-Request-ID`. */
            requestId?: string;
        };
        /**
         * Format: date-time
         * @description ISO 8601, UTC, with milliseconds.
         * @example 2026-01-01T12:00:00.000Z
         */
        Timestamp: string;
        /**
         * Format: date-time
         * @description ISO 8601, UTC, with milliseconds; null until it happens.
         */
        NullableTimestamp: string | null;
        Liveness: {
            /**
             * @description Always `ok`.
             * @constant
             */
            status: "ok";
        };
        Readiness: {
            /**
             * @description `ready` (200): every dependency answers. `degraded` (200): Redis is down or its circuit
             *     is open; the service works without it (rate limits pass, sign-in failures are counted
             *     per instance), so the instance stays in rotation. `draining` (503): SIGTERM arrived;
             *     in-flight requests finish, new ones should go elsewhere. `unavailable` (503): the
             *     database does not answer.
             * @enum {string}
             */
            status: "ready" | "degraded" | "draining" | "unavailable";
            /** @description Each dependency and whether it answered. */
            checks: {
                [key: string]: "up" | "down";
            };
        };
        /**
         * @description The agent service's error body: a snake_case `error` code and a human `message`;
         *     `details` when there is more to say. Bodies that the specification gives a detail text
         *     also carry it as `detail`, for clients written against FastAPI.
         */
        Error: {
            /**
             * @description The error's code. Each response narrows it to the codes its status carries.
             * @enum {string}
             */
            error: "validation_error" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "conflict" | "state_conflict" | "quota_exceeded" | "precondition_failed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "request_timeout" | "expectation_failed" | "headers_too_large" | "internal_error" | "service_unavailable" | "idempotency_key_in_use" | "idempotency_key_reused";
            /** @description What went wrong, in words for people; match on `error`, not on this text. */
            message: string;
            /** @description The specification's detail text (`Agent not found`, `Not authenticated`, `Invalid API key`...), for clients written against FastAPI; only on the bodies that carry one. */
            detail?: string;
            /** @description More about the error when there is more to say: the offending fields of a validation error, the states of a conflict, the quota of a refusal. */
            details?: {
                [key: string]: unknown;
            };
        };
        NotFoundError: components["schemas"]["Error"] & {
            /** @constant */
            error?: "not_found";
            /** @enum {string} */
            detail: "Agent not found" | "Task not found";
        };
        /** @description Which quota a refused write would exceed, its limit and what is used now. */
        QuotaUsage: {
            /**
             * @description `agents_per_user` (`QUOTA_AGENTS_PER_USER`), `tasks_per_agent`
             *     (`QUOTA_TASKS_PER_AGENT`) or `stored_bytes_per_user` (`QUOTA_STORED_BYTES_PER_USER`).
             * @enum {string}
             */
            quota: "agents_per_user" | "tasks_per_agent" | "stored_bytes_per_user";
            /** @description The configured limit of this quota: agents, tasks or bytes. */
            limit: number;
            /** @description Agents owned, tasks held, or bytes stored now, before the refused write. */
            usage: number;
            /** @description For stored bytes, how many more the refused write needed. */
            requested?: number;
        };
        QuotaExceededError: components["schemas"]["Error"] & {
            /** @constant */
            error?: "quota_exceeded";
            details: components["schemas"]["QuotaUsage"];
        };
        /** @description A change the resource's current state does not allow; `details` says which state (`from`/`to`, `status` or `agent_status`). */
        StateConflictError: components["schemas"]["Error"] & {
            /** @constant */
            error?: "state_conflict";
        };
        /** @description The first request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds. */
        IdempotencyKeyInUseError: components["schemas"]["Error"] & {
            /** @constant */
            error?: "idempotency_key_in_use";
        };
        /** @description This `Idempotency-Key` was sent before with another method, path or body. */
        IdempotencyKeyReusedError: components["schemas"]["Error"] & {
            /** @constant */
            error?: "idempotency_key_reused";
        };
        /** @description The first request with this `Idempotency-Key` is still running: send it again after `Retry-After` seconds. */
        ApiIdempotencyKeyInUseError: {
            /** @description What went wrong, with `code` `IDEMPOTENCY_KEY_IN_USE`. */
            error: {
                /**
                 * @description Always `IDEMPOTENCY_KEY_IN_USE`.
                 * @constant
                 */
                code: "IDEMPOTENCY_KEY_IN_USE";
                /** @description What happened, in words for people. */
                message: string;
                /** @description The request's `X-Request-ID`. */
                requestId?: string;
            };
        };
        /** @description This `Idempotency-Key` was sent before with another method, path or body. */
        ApiIdempotencyKeyReusedError: {
            /** @description What went wrong, with `code` `IDEMPOTENCY_KEY_REUSED`. */
            error: {
                /**
                 * @description Always `IDEMPOTENCY_KEY_REUSED`.
                 * @constant
                 */
                code: "IDEMPOTENCY_KEY_REUSED";
                /** @description What happened, in words for people. */
                message: string;
                /** @description The request's `X-Request-ID`. */
                requestId?: string;
            };
        };
        /** @description A duplicate (an e-mail already in use), a state conflict, or a change that would leave an account without a way to sign in. */
        ApiConflictError: {
            error: components["schemas"]["ApiErrorObject"] & {
                /** @constant */
                code?: "CONFLICT";
            };
        };
        /** @description A write refused by a quota; `details` names the quota, its `limit` and the current `usage`. */
        ApiQuotaExceededError: {
            error: components["schemas"]["ApiErrorObject"] & {
                /** @constant */
                code?: "QUOTA_EXCEEDED";
                details: components["schemas"]["QuotaUsage"];
            };
        };
        /** @description One offending field or parameter, as `VALIDATION_ERROR` lists them. */
        ApiFieldError: {
            /** @description The field's name, a dotted path inside bodies (`input.size`), or the parameter's name. */
            field: string;
            /** @description What is wrong with the value. */
            message: string;
        };
        ValidationError: components["schemas"]["Error"] & {
            /** @constant */
            error?: "validation_error";
            details: {
                /** @description Each field or parameter that breaks the schema, and how (the first 20). */
                fields: components["schemas"]["FieldError"][];
                /** @description How many more problems there were than `fields` lists (only when there were more than 20). */
                omitted?: number;
            };
        };
        FieldError: {
            /** @description The field's name, a dotted path inside bodies (`input.size`), or the parameter's name. */
            field: string;
            /**
             * @description Where the value was sent: the body, the query string, the path or a header.
             * @enum {string}
             */
            in: "body" | "query" | "path" | "header";
            /** @description What is wrong with the value. */
            message: string;
        };
        /**
         * Format: uuid
         * @description Opaque identifier (a time-ordered UUIDv7).
         */
        Id: string;
        /** Format: uuid */
        NullableId: string | null;
        /** @description Free-form input for the agent, at most 65,536 bytes as JSON (400 beyond). */
        TaskInput: {
            [key: string]: unknown;
        } | null;
        /** @description The outcome reported with `succeeded` (any JSON value), else null. */
        TaskResult: unknown;
        /** @description Why the task failed, reported with `failed`, else null. */
        TaskErrorText: string | null;
        /** @description 1 to 100 characters once surrounding white space is trimmed (the service trims it). */
        UserName: string;
        /**
         * Format: email
         * @description Stored lower-case; unique.
         */
        Email: string;
        /**
         * Format: password
         * @description At least 8 characters; never returned or logged.
         */
        Password: string;
        /**
         * Format: password
         * @description The signed-in user's own current password. Required to change `password` or `email` (a
         *     token alone must not be enough to take an account over); wrong: 403. Failed checks count
         *     towards the sign-in limits. Accounts without a password (third-party sign-in) instead sign
         *     in with their provider again and change within 10 minutes.
         */
        CurrentPassword: string;
        /** @description The user's age in years (0 to 150), or null when not given. */
        NullableAge: number | null;
        /** @description 1 to 200 characters, not only white space. */
        PostTitle: string;
        /** @description The post's text, up to 50,000 characters; may be empty. */
        PostBody: string;
        /** @description A provider account linked to the caller, and the state of its stored tokens (never their values). */
        OAuthConnection: {
            /** @description The provider's id, as in `/api/auth/oauth/{provider}`. */
            provider: string;
            /** @description The provider's display name (its id when it is no longer configured). */
            name: string;
            /** @description The e-mail address the provider last gave. */
            email: string | null;
            linked_at: components["schemas"]["Timestamp"];
            /**
             * @description `valid`: expiry more than 5 minutes away (or none given); `expiring`: within 5 minutes, the next use refreshes it; `expired`; `none`: no tokens stored.
             * @enum {string}
             */
            token_status: "valid" | "expiring" | "expired" | "none";
            expires_at: components["schemas"]["NullableTimestamp"];
            /** @description Whether a refresh token is stored, so the access token can be renewed without the user. */
            has_refresh_token: boolean;
            refreshed_at: components["schemas"]["NullableTimestamp"];
            refresh_failed_at: components["schemas"]["NullableTimestamp"];
        };
        OAuthLinkStart: {
            /** @description Where to send the browser. */
            data: {
                /** @description Where to send the browser (`window.location.assign`): the authorization URL of the provider, or `/?link=failed&reason=<reason>` when the flow could not start. */
                location: string;
            };
            meta: components["schemas"]["Meta"];
        };
        OAuthConnectionList: {
            /** @description The caller's linked provider accounts, oldest link first. */
            data: components["schemas"]["OAuthConnection"][];
            meta: components["schemas"]["Meta"];
        };
        /**
         * @description What an agent key may do with its agent: `tasks:read` (read the agent, its tasks and its
         *     leases), `tasks:write` (queue tasks on it), `tasks:work` (claim and work leases).
         * @enum {string}
         */
        AgentKeyScope: "tasks:read" | "tasks:write" | "tasks:work";
        /**
         * @description An agent key: the one definition of each field a key has. A key acts as its agent only,
         *     within its scopes; its secret is shown once, when it is created.
         */
        AgentKeyEntity: {
            id?: components["schemas"]["Id"];
            /** @description The agent the key acts as. */
            agent_id?: components["schemas"]["Id"];
            /** @description A name for people (which worker, which machine), 1 to 100 characters. */
            name?: string;
            /** @description The start of the secret (`afk_` and 8 characters), to recognise a key without its secret. */
            prefix?: string;
            /** @description What the key may do (see `AgentKeyScope`). */
            scopes?: components["schemas"]["AgentKeyScope"][];
            created_at?: components["schemas"]["Timestamp"];
            /** @description When the key stops working; null when it never expires. */
            expires_at?: components["schemas"]["NullableTimestamp"];
            /** @description When the key last authenticated a request, to the minute; null when never. */
            last_used_at?: components["schemas"]["NullableTimestamp"];
            /** @description When the key was revoked; null while it is not. */
            revoked_at?: components["schemas"]["NullableTimestamp"];
            /** @description The secret (its `prefix`, then 43 base64url characters): send it as `X-API-Key`. Only in the answer that created the key. */
            secret?: string;
        };
        /** @description An agent key as every read shows it, without its secret. */
        AgentKey: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["AgentKeyEntity"], "id" | "agent_id" | "name" | "prefix" | "scopes" | "created_at" | "expires_at" | "last_used_at" | "revoked_at">;
        /** @description A new agent key, with its secret (this once). */
        AgentKeyCreated: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["AgentKeyEntity"], "id" | "agent_id" | "name" | "prefix" | "scopes" | "created_at" | "expires_at" | "last_used_at" | "revoked_at" | "secret">;
        AgentKeyCreate: {
            /** @description A name for people, 1 to 100 characters. */
            name: string;
            /** @description What the key may do; all three scopes when absent. */
            scopes?: components["schemas"]["AgentKeyScope"][];
            /** @description Days until the key expires (1 to 365); it never expires when absent. Not returned as such; the key's `expires_at` is `created_at` plus these days. */
            expires_in_days?: number;
        };
        AgentKeyItem: {
            /** @description The key. */
            data: components["schemas"]["AgentKey"];
            meta: components["schemas"]["Meta"];
        };
        AgentKeyCreatedItem: {
            /** @description The key, with its secret. */
            data: components["schemas"]["AgentKeyCreated"];
            meta: components["schemas"]["Meta"];
        };
        AgentKeyCollection: {
            /** @description The keys of this page, newest first. */
            data: components["schemas"]["AgentKey"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /** @description What the worker last reported of its progress; at least one of the two. */
        TaskProgress: {
            /** @description How much is done, 0 to 100. */
            percent?: number;
            /** @description What the worker is doing, up to 500 characters. */
            message?: string;
        };
        /**
         * @description `active` while the worker holds the task; then `completed` (the worker reported success or
         *     failure), `released` (the worker gave the task back), `expired` (not extended in time),
         *     `cancelled` (the task was cancelled) or `timed_out` (the task passed its deadline). Only an
         *     `active` lease changes.
         * @enum {string}
         */
        LeaseStatus: "active" | "completed" | "released" | "expired" | "cancelled" | "timed_out";
        /** @description Seconds the lease holds the task without a heartbeat, 5 to 3600. */
        LeaseTtl: number;
        /** @description A lease on a task, held by one worker. The one definition of each field a lease has. */
        LeaseEntity: {
            id?: components["schemas"]["Id"];
            /** @description The agent whose task is leased. */
            agent_id?: components["schemas"]["Id"];
            /** @description The leased task. */
            task_id?: components["schemas"]["Id"];
            /** @description The task as it is now. */
            task?: components["schemas"]["Task"];
            status?: components["schemas"]["LeaseStatus"];
            ttl_seconds?: components["schemas"]["LeaseTtl"];
            /** @description When the lease expires unless it is extended (for an ended lease, when it ended or would have). */
            expires_at?: components["schemas"]["Timestamp"];
            created_at?: components["schemas"]["Timestamp"];
        };
        /** @description A lease, with its task. */
        Lease: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["LeaseEntity"], "id" | "agent_id" | "task_id" | "task" | "status" | "ttl_seconds" | "expires_at" | "created_at">;
        LeaseItem: {
            /** @description The lease. */
            data: components["schemas"]["Lease"];
            meta: components["schemas"]["Meta"];
        };
        LeaseClaim: {
            /** @default 60 */
            ttl_seconds?: components["schemas"]["LeaseTtl"];
            /**
             * @description How long to wait for a task when none is available, 0 to 20 seconds (a long poll). It shapes this answer only and is kept nowhere.
             * @default 0
             */
            wait_seconds?: number;
        };
        /** @description A heartbeat, a success or a failure (see the operation). */
        LeaseUpdate: components["schemas"]["LeaseHeartbeat"] | components["schemas"]["LeaseSuccess"] | components["schemas"]["LeaseFailure"];
        /** @description Extends the lease from now, and records progress. */
        LeaseHeartbeat: {
            ttl_seconds?: components["schemas"]["LeaseTtl"];
            progress?: components["schemas"]["TaskProgress"];
            usage?: components["schemas"]["UsageIncrement"];
        };
        /** @description The task succeeded. */
        LeaseSuccess: {
            /**
             * @description Always `succeeded`.
             * @constant
             */
            status: "succeeded";
            /** @description The outcome, any JSON value (at most 65,536 bytes). */
            result?: unknown;
            usage?: components["schemas"]["UsageIncrement"];
        };
        /** @description The task failed. */
        LeaseFailure: {
            /**
             * @description Always `failed`.
             * @constant
             */
            status: "failed";
            /** @description Why it failed, up to 10,000 characters. */
            error: string;
            /**
             * @description Queue the task again after a back-off while attempts remain.
             * @default false
             */
            retry?: boolean;
            usage?: components["schemas"]["UsageIncrement"];
        };
        /** @description The lease is no longer `active`: the worker must stop working on its task. */
        ApiLeaseLostError: {
            /** @description What went wrong, with `code` `LEASE_LOST`. */
            error: {
                /**
                 * @description Always `LEASE_LOST`.
                 * @constant
                 */
                code: "LEASE_LOST";
                /** @description What happened to the lease, in words for people. */
                message: string;
                /** @description Why the lease is lost. */
                details: {
                    /**
                     * @description What ended the lease.
                     * @enum {string}
                     */
                    reason: "expired" | "cancelled" | "completed" | "released" | "timed_out";
                    lease_status: components["schemas"]["LeaseStatus"];
                };
                /** @description The request's `X-Request-ID`. */
                requestId?: string;
            };
        };
        /**
         * @description Tokens and money used since the worker last reported them: increments, never running
         *     totals (the service sums them on the attempt, the task and the agent). At least one field.
         */
        UsageIncrement: {
            /** @description Prompt tokens, 0 to 100,000,000. */
            input_tokens?: number;
            /** @description Completion tokens, 0 to 100,000,000. */
            output_tokens?: number;
            /** @description What it cost in US dollars, 0 to 100,000, counted to the millionth (finer amounts are rounded). */
            cost_usd?: number;
            /** @description The model that was called (up to 200 characters); the attempt and the agent's usage remember the last one named. */
            model?: string;
        };
        /** @description Tokens and money summed over what workers reported. */
        Usage: {
            /** @description Prompt tokens. */
            input_tokens: number;
            /** @description Completion tokens. */
            output_tokens: number;
            /** @description US dollars, to the millionth. */
            cost_usd: number;
        };
        /** @description The credential that claimed the attempt. */
        AttemptWorker: {
            /**
             * @description A signed-in person (`user`), a configured service key (`service_key`) or an agent key (`agent_key`).
             * @enum {string}
             */
            kind: "user" | "service_key" | "agent_key";
            /** @description The user's or the agent key's id; for a service key, `service-key-<n>` (which of the configured keys, never the key). */
            credential_id: string;
            /** @description The user's or the key's name; null when it is gone. */
            name: string | null;
        };
        /**
         * @description How an attempt ended: its worker reported `succeeded` or `failed`, gave the task back
         *     (`released`), stopped heartbeating (`expired`), the task was cancelled (`cancelled`), or it
         *     passed its deadline (`timed_out`).
         * @enum {string}
         */
        AttemptOutcome: "succeeded" | "failed" | "released" | "expired" | "cancelled" | "timed_out";
        /** @description One lease of a task, and what happened in it. */
        Attempt: {
            /** @description Its place among the task's attempts, from 1. */
            number: number;
            lease_id: components["schemas"]["Id"];
            /** @description Who claimed it; null for attempts made before workers were recorded. */
            worker: components["schemas"]["AttemptWorker"] | null;
            /** @description When it was claimed. */
            started_at: components["schemas"]["Timestamp"];
            /** @description When it ended; null while it runs. */
            ended_at: components["schemas"]["NullableTimestamp"];
            /** @description How it ended; null while it runs. */
            outcome: components["schemas"]["AttemptOutcome"] | null;
            /** @description The error its worker reported (or `lease expired`); null otherwise. */
            error: components["schemas"]["TaskErrorText"];
            /** @description Its worker's last heartbeat; null before the first. */
            last_heartbeat_at: components["schemas"]["NullableTimestamp"];
            /** @description The progress its worker last reported; null before any. */
            progress: components["schemas"]["TaskProgress"] | null;
            usage: components["schemas"]["Usage"];
            /** @description The model its worker last named with its usage; null when none was named. */
            model: string | null;
        };
        AttemptCollection: {
            /** @description The attempts of this page, oldest first. */
            data: components["schemas"]["Attempt"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /** @description What to do (`action`) to which tasks: those named by `ids`, or those in `status` (exactly one of the two). */
        TaskBatchCreate: components["schemas"]["TaskBatchByIds"] | components["schemas"]["TaskBatchByStatus"];
        /**
         * @description `cancel` (a queued or running task) or `retry` (a failed or cancelled task).
         * @enum {string}
         */
        TaskBatchAction: "cancel" | "retry";
        /** @description The tasks named by id. */
        TaskBatchByIds: {
            action: components["schemas"]["TaskBatchAction"];
            /** @description The tasks, by id, each once. */
            ids: components["schemas"]["Id"][];
        };
        /** @description The tasks in one status, oldest first. */
        TaskBatchByStatus: {
            action: components["schemas"]["TaskBatchAction"];
            status: components["schemas"]["TaskStatus"];
            /**
             * @description The most tasks this request takes (the oldest first).
             * @default 1000
             */
            limit?: number;
        };
        /** @description What the batch did to one task. */
        TaskBatchResult: {
            task_id: components["schemas"]["Id"];
            /**
             * @description `changed`, or `refused` (the task is as it was; `error` says why).
             * @enum {string}
             */
            outcome: "changed" | "refused";
            /** @description The task's status now; null when it was deleted while the batch ran. */
            status: components["schemas"]["TaskStatus"] | null;
            /** @description Why the task was refused; null when it changed. */
            error: null | {
                /** @description The code its own request would have answered (`CONFLICT` for a task in a state the action does not take, `QUOTA_EXCEEDED`). */
                code: string;
                /** @description In words for people. */
                message: string;
            };
        };
        /** @description What a batch did, task by task. */
        TaskBatch: {
            action: components["schemas"]["TaskBatchAction"];
            /** @description How many tasks changed. */
            changed: number;
            /** @description How many tasks were refused. */
            refused: number;
            /** @description With `status`, true when more tasks in that status were left for another request. */
            more: boolean;
            /** @description One entry per task, in the order named (or taken, oldest first). */
            results: components["schemas"]["TaskBatchResult"][];
        };
        TaskBatchItem: {
            data: components["schemas"]["TaskBatch"];
            meta: components["schemas"]["Meta"];
        };
        /** @description A label for people, up to 100 characters; null for none. */
        ScheduleName: string | null;
        /**
         * @description A cron expression of five fields (minute, hour, day of month, month, day of week), as
         *     crontab reads them: lists, ranges, steps and names (`JAN`, `MON`) are accepted, and a day
         *     of month and a day of week both restricted match either. Seconds, nicknames (`@daily`) and
         *     extensions (`L`, `W`, `#`, `?`) are not.
         * @example 30 9 * * MON-FRI
         */
        ScheduleCron: string;
        /**
         * @description The IANA time zone the cron expression is read in (`Europe/Paris`); `UTC` when not given. An unknown zone answers 400.
         * @example Europe/Paris
         */
        ScheduleTimezone: string;
        /** @description Seconds between firings, 1 to 31,622,400 (366 days). */
        ScheduleInterval: number;
        /**
         * @description `skip`: a firing while the previous task of the schedule is unfinished creates nothing; `allow`: it creates a task all the same.
         * @enum {string}
         */
        ScheduleOverlap: "skip" | "allow";
        /** @description The task each firing creates (as `TaskCreate` without `run_at`). */
        ScheduleTemplate: {
            title: components["schemas"]["TaskTitle"];
            description?: components["schemas"]["TaskDescription"];
            /** @description Free-form input for the agent, at most 65,536 bytes as JSON (400 beyond). */
            input?: {
                [key: string]: unknown;
            } | null;
            priority?: components["schemas"]["TaskPriority"];
            max_attempts?: components["schemas"]["TaskMaxAttempts"];
            timeout_seconds?: components["schemas"]["TaskTimeout"];
        };
        /** @description A schedule, in full; its fields are `ScheduleEntity`'s. */
        Schedule: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["ScheduleEntity"], "id" | "agent_id" | "name" | "cron" | "timezone" | "interval_seconds" | "template" | "paused" | "overlap" | "next_run_at" | "last_run_at" | "last_task_id" | "last_error" | "created_at" | "updated_at">;
        /** @description A schedule that creates the agent's tasks over time. The one definition of each field a schedule has. */
        ScheduleEntity: {
            id?: components["schemas"]["Id"];
            agent_id?: components["schemas"]["Id"];
            name?: components["schemas"]["ScheduleName"];
            /** @description The cron expression; null for an interval schedule. */
            cron?: components["schemas"]["ScheduleCron"] | null;
            timezone?: components["schemas"]["ScheduleTimezone"];
            /** @description Seconds between firings; null for a cron schedule. */
            interval_seconds?: components["schemas"]["ScheduleInterval"] | null;
            template?: components["schemas"]["ScheduleTemplate"];
            /** @description A paused schedule fires nothing. */
            paused?: boolean;
            overlap?: components["schemas"]["ScheduleOverlap"];
            /** @description When it fires next; null while paused. */
            next_run_at?: components["schemas"]["NullableTimestamp"];
            /** @description When it last fired (whether or not that made a task); null before its first firing. */
            last_run_at?: components["schemas"]["NullableTimestamp"];
            /** @description The task its latest task-making firing created; null before one. */
            last_task_id?: components["schemas"]["NullableId"];
            /** @description Why its latest firing created no task (the previous task unfinished, the agent paused, a quota reached); null when it created one. */
            last_error?: string | null;
            created_at?: components["schemas"]["Timestamp"];
            updated_at?: components["schemas"]["Timestamp"];
        };
        /** @description A new schedule, on a cron expression or at an interval (exactly one of `cron` and `interval_seconds`). */
        ScheduleCreate: components["schemas"]["ScheduleCreateCron"] | components["schemas"]["ScheduleCreateInterval"];
        /** @description A schedule on a cron expression. */
        ScheduleCreateCron: {
            cron: components["schemas"]["ScheduleCron"];
            timezone?: components["schemas"]["ScheduleTimezone"];
            name?: components["schemas"]["ScheduleName"];
            template: components["schemas"]["ScheduleTemplate"];
            /**
             * @description Created paused (it fires nothing until resumed).
             * @default false
             */
            paused?: boolean;
            /** @default skip */
            overlap?: components["schemas"]["ScheduleOverlap"];
        };
        /** @description A schedule at an interval. */
        ScheduleCreateInterval: {
            interval_seconds: components["schemas"]["ScheduleInterval"];
            name?: components["schemas"]["ScheduleName"];
            template: components["schemas"]["ScheduleTemplate"];
            /**
             * @description Created paused (it fires nothing until resumed).
             * @default false
             */
            paused?: boolean;
            /** @default skip */
            overlap?: components["schemas"]["ScheduleOverlap"];
        };
        /** @description A partial update, at least one field; `cron` and `interval_seconds` not both. */
        ScheduleUpdate: {
            name?: components["schemas"]["ScheduleName"];
            cron?: components["schemas"]["ScheduleCron"];
            timezone?: components["schemas"]["ScheduleTimezone"];
            interval_seconds?: components["schemas"]["ScheduleInterval"];
            template?: components["schemas"]["ScheduleTemplate"];
            /** @description Pause (true) or resume (false). */
            paused?: boolean;
            overlap?: components["schemas"]["ScheduleOverlap"];
        };
        ScheduleItem: {
            data: components["schemas"]["Schedule"];
            meta: components["schemas"]["Meta"];
        };
        ScheduleCollection: {
            /** @description The schedules of this page, oldest first. */
            data: components["schemas"]["Schedule"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /**
         * @description How much a line matters, from `debug` up to `error`.
         * @enum {string}
         */
        LogLevel: "debug" | "info" | "warn" | "error";
        /** @description One line a worker logs. */
        LogLineCreate: {
            level: components["schemas"]["LogLevel"];
            /** @description The line, up to 8,192 characters. */
            message: string;
            /** @description Anything structured that goes with it, any JSON value up to 8,192 bytes. */
            data?: unknown;
            /** @description When it was logged (now when absent); at most a day before or a minute after the service's clock. */
            at?: components["schemas"]["Timestamp"];
        };
        /** @description A batch of 1 to 100 lines, written whole or not at all. */
        LogAppend: {
            /** @description The lines, in the order they were logged. */
            lines: components["schemas"]["LogLineCreate"][];
        };
        /** @description A line of a task's log. The one definition of each field a line has. */
        LogLineEntity: {
            /** @description The line's id; ids increase in the order lines were written. */
            id?: components["schemas"]["EventId"];
            /** @description The `number` of the attempt that logged it. */
            attempt?: number;
            lease_id?: components["schemas"]["Id"];
            level?: components["schemas"]["LogLevel"];
            /** @description The line. */
            message?: string;
            /** @description What the worker attached, or null. */
            data?: unknown;
            /** @description When it was logged. */
            at?: components["schemas"]["Timestamp"];
        };
        /** @description A line of a task's log, as reads answer it. */
        LogLine: {
            id: components["schemas"]["EventId"];
        } & WithRequired<components["schemas"]["LogLineEntity"], "id" | "attempt" | "lease_id" | "level" | "message" | "data" | "at">;
        LogLineCollection: {
            /** @description The lines of this page, oldest first. */
            data: components["schemas"]["LogLine"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /** @description What one model used in a bucket (`model` null for usage reported without one). */
        ModelUsage: {
            /** @description The model, as workers named it. */
            model: string | null;
            /** @description Prompt tokens. */
            input_tokens: number;
            /** @description Completion tokens. */
            output_tokens: number;
            /** @description US dollars. */
            cost_usd: number;
        };
        /** @description One hour or day of usage. */
        UsageBucket: {
            /** @description Where the bucket begins (UTC). */
            start: components["schemas"]["Timestamp"];
            /** @description Prompt tokens. */
            input_tokens: number;
            /** @description Completion tokens. */
            output_tokens: number;
            /** @description US dollars. */
            cost_usd: number;
            /** @description The same, by model, the largest cost first. */
            models: components["schemas"]["ModelUsage"][];
        };
        /** @description An agent's usage over a range. */
        AgentUsage: {
            agent_id: components["schemas"]["Id"];
            /**
             * @description The bucket size.
             * @enum {string}
             */
            granularity: "hour" | "day";
            /** @description The first bucket's start. */
            from: components["schemas"]["Timestamp"];
            /** @description Where the last bucket ends. */
            to: components["schemas"]["Timestamp"];
            totals: components["schemas"]["Usage"];
            /** @description Every bucket of the range, oldest first, zeros included. */
            buckets: components["schemas"]["UsageBucket"][];
        };
        AgentUsageItem: {
            data: components["schemas"]["AgentUsage"];
            meta: components["schemas"]["Meta"];
        };
        /** @description A lease a worker holds now. */
        WorkerLease: {
            lease_id: components["schemas"]["Id"];
            task_id: components["schemas"]["Id"];
            task_title: components["schemas"]["TaskTitle"];
            /** @description When the lease expires unless extended. */
            expires_at: components["schemas"]["Timestamp"];
            /** @description The last heartbeat; null before the first. */
            last_heartbeat_at: components["schemas"]["NullableTimestamp"];
            /** @description The progress last reported in this lease. */
            progress: components["schemas"]["TaskProgress"] | null;
        };
        /** @description A credential that works the agent's tasks. */
        Worker: {
            /**
             * @description As an attempt's `worker.kind`.
             * @enum {string}
             */
            kind: "user" | "service_key" | "agent_key";
            /** @description As an attempt's `worker.credential_id`. */
            credential_id: string;
            /** @description The user's or the key's name; null when it is gone. */
            name: string | null;
            /** @description Its last claim, heartbeat or outcome on this agent. */
            last_seen_at: components["schemas"]["Timestamp"];
            /** @description The leases it holds now, the soonest to expire first. */
            active_leases: components["schemas"]["WorkerLease"][];
            /** @description Its attempts that succeeded in the last hour. */
            succeeded_last_hour: number;
            /** @description Its attempts that failed, expired or timed out in the last hour. */
            failed_last_hour: number;
        };
        WorkerList: {
            /** @description The workers of this page, most recently seen first. */
            data: components["schemas"]["Worker"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /** @description The 50th and 95th percentiles of a duration, in seconds; null when nothing was measured. */
        Percentiles: {
            /** @description Half took at most this long. */
            p50: number | null;
            /** @description 95 in 100 took at most this long. */
            p95: number | null;
        };
        /** @description An agent's queue now and its work over a window. */
        AgentStats: {
            agent_id: components["schemas"]["Id"];
            /**
             * @description The window the figures below cover.
             * @enum {string}
             */
            window: "1h" | "24h";
            /** @description When the figures were read. */
            at: components["schemas"]["Timestamp"];
            tasks: components["schemas"]["TaskCounts"];
            /** @description Queued tasks a worker could claim now. */
            queue_depth: number;
            /** @description Queued tasks waiting for their `available_at` (a retry backing off). */
            scheduled: number;
            /** @description Attempts that succeeded in the window. */
            succeeded: number;
            /** @description Attempts that failed, expired or timed out in the window. */
            failed: number;
            /** @description Tasks that reached `succeeded` or `failed` per minute, over the window. */
            throughput_per_minute: number;
            /** @description From a task's creation to its first lease, for first leases in the window. */
            wait_seconds: components["schemas"]["Percentiles"];
            /** @description From a lease to its worker's outcome, for attempts that ended in the window. */
            run_seconds: components["schemas"]["Percentiles"];
            /**
             * @description The window in equal buckets, oldest first (60 of a minute for `1h`, 96 of 15 minutes
             *     for `24h`), read from the event log: what entered the queue, what finished, and the
             *     queue depth at each bucket's end (walked back from now through the tasks that entered
             *     and left the queue).
             */
            series: components["schemas"]["StatsBucket"][];
        };
        /** @description One bucket of an agent's window. */
        StatsBucket: {
            /** @description Where the bucket begins. */
            start: components["schemas"]["Timestamp"];
            /** @description Tasks created in the bucket. */
            created: number;
            /** @description Tasks that succeeded in the bucket. */
            succeeded: number;
            /** @description Tasks that failed for good in the bucket. */
            failed: number;
            /** @description Tasks queued at the bucket's end. */
            queue_depth: number;
        };
        AgentStatsItem: {
            data: components["schemas"]["AgentStats"];
            meta: components["schemas"]["Meta"];
        };
        /**
         * @description An event's id, as decimal digits (at most 15: every id fits a JavaScript number and both
         *     databases' integers exactly). Ids increase in the order events are committed; compare them
         *     as numbers, or treat them as opaque.
         * @example 42
         */
        EventId: string;
        /**
         * @description What changed: `agent.created`, `agent.updated` (its fields, or its status, also when a
         *     task moved it between `idle` and `running`), `agent.deleted`; `task.created`,
         *     `task.updated` (its fields, or a status its owner set), `task.leased` (a worker claimed
         *     it), `task.progress` (its worker reported progress), `task.succeeded`, `task.failed`,
         *     `task.cancelled`, `task.requeued` (queued again: released, retried, or its lease
         *     expired) and `task.deleted`. A workspace's audit trail: `workspace.updated` (renamed),
         *     `member.added`, `member.role_changed`, `member.removed` (removed, or left),
         *     `invitation.created`, `invitation.accepted`, `invitation.revoked`, `agent_key.created`,
         *     `agent_key.revoked`, `webhook.created`, `webhook.updated` and `webhook.deleted`; these
         *     name no secret, token or digest.
         * @enum {string}
         */
        EventType: "agent.created" | "agent.updated" | "agent.deleted" | "task.created" | "task.updated" | "task.leased" | "task.progress" | "task.succeeded" | "task.failed" | "task.cancelled" | "task.requeued" | "task.deleted" | "workspace.updated" | "member.added" | "member.role_changed" | "member.removed" | "invitation.created" | "invitation.accepted" | "invitation.revoked" | "agent_key.created" | "agent_key.revoked" | "webhook.created" | "webhook.updated" | "webhook.deleted";
        /** @description Who made a change: a user (their id), an agent key (its id) or a configured service key (its position in `API_KEYS`, from 1). */
        EventActorEntity: {
            /**
             * @description What kind of credential made the change.
             * @enum {string}
             */
            type?: "user" | "agent_key" | "service_key";
            id?: components["schemas"]["ActorId"];
        };
        /** @description The user's or the agent key's id, or the service key's position. */
        ActorId: string;
        /** @description Who made a change (see `EventActorEntity`). */
        EventActor: {
            id: components["schemas"]["ActorId"];
        } & WithRequired<components["schemas"]["EventActorEntity"], "type" | "id">;
        /** @description The event, the one definition of each of its fields; `Event` composes it. */
        EventEntity: {
            id?: components["schemas"]["EventId"];
            type?: components["schemas"]["EventType"];
            /** @description When the change was made. */
            occurred_at?: components["schemas"]["Timestamp"];
            /** @description The agent that changed, or whose task or key changed; null for a workspace's own changes (members, invitations, webhooks, its name). */
            agent_id?: components["schemas"]["NullableId"];
            /** @description The workspace the change happened in (for an agent's, the one it was in then). */
            workspace_id?: components["schemas"]["Id"];
            /** @description Who made the change; null when the service made it itself (a lease that expired, a schedule that fired) and for events recorded before actors were. */
            actor?: components["schemas"]["EventActor"] | null;
            /** @description The task that changed; null for an agent's events. */
            task_id?: components["schemas"]["NullableId"];
            /**
             * @description What changed: for `*.created` the whole resource as it was created; for `*.deleted`
             *     its `id` and last `status`; otherwise the fields that changed, with their new values,
             *     and `previous_status` when the status changed. Every task event also carries the
             *     task's `title` as it is after the change, whether or not it changed, so that readers
             *     can name the task, and `previous_title` when it changed (events an earlier version
             *     of the service recorded lack both).
             */
            data?: {
                [key: string]: unknown;
            };
        };
        /**
         * @description One change of an agent, a task or a workspace (its audit trail), recorded in the same transaction as the change.
         * @example {
         *       "id": "42",
         *       "type": "task.succeeded",
         *       "occurred_at": "2026-01-01T12:00:00.000Z",
         *       "agent_id": "0190b5a2-1c1e-7b3e-9a55-2f1d3c4b5a69",
         *       "workspace_id": "0190b5a2-0a0b-7c0d-8e0f-102132435465",
         *       "actor": {
         *         "type": "agent_key",
         *         "id": "0190b5a2-2b2c-7d3e-8f40-516273849506"
         *       },
         *       "task_id": "0190b5a2-3d4e-7f10-8a21-6c5b4a392817",
         *       "data": {
         *         "status": "succeeded",
         *         "previous_status": "running",
         *         "result": {
         *           "lines": 1234
         *         },
         *         "finished_at": "2026-01-01T12:00:00.000Z",
         *         "updated_at": "2026-01-01T12:00:00.000Z",
         *         "title": "Summarise the quarterly report"
         *       }
         *     }
         */
        Event: {
            id: components["schemas"]["EventId"];
        } & WithRequired<components["schemas"]["EventEntity"], "id" | "type" | "occurred_at" | "agent_id" | "workspace_id" | "actor" | "task_id" | "data">;
        EventCollection: {
            /** @description The events of this page, oldest first. */
            data: components["schemas"]["Event"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /** @description The events after the id asked for are no longer kept. */
        ApiEventsExpiredError: {
            /** @description What went wrong, with `code` `EVENTS_EXPIRED`. */
            error: {
                /**
                 * @description Always `EVENTS_EXPIRED`.
                 * @constant
                 */
                code: "EVENTS_EXPIRED";
                /** @description What happened, in words for people. */
                message: string;
                /** @description Which events are gone. */
                details: {
                    after: components["schemas"]["EventId"];
                    /** @description The newest id pruned; later ones are kept. */
                    pruned_through: components["schemas"]["EventId"];
                };
                /** @description The request's `X-Request-ID`. */
                requestId?: string;
            };
        };
        /** @description The event types the endpoint receives; null for every type. */
        WebhookEventTypes: components["schemas"]["EventType"][] | null;
        /**
         * Format: uri
         * @description Where events are POSTed: an absolute `http` or `https` URL (only `https` in production), at
         *     most 2,048 characters, without credentials, whose host resolves to public addresses only.
         */
        WebhookUrl: string;
        /** @description A note for people, up to 500 characters. */
        WebhookDescription: string;
        /**
         * @description A webhook endpoint: the one definition of each field it has. Its signing secret is shown
         *     once, when it is created.
         */
        WebhookEntity: {
            id?: components["schemas"]["Id"];
            /** @description The user who created it, or null for an endpoint a service key created. */
            owner_id?: components["schemas"]["NullableId"];
            /** @description The workspace it belongs to, whose events it receives. */
            workspace_id?: components["schemas"]["Id"];
            url?: components["schemas"]["WebhookUrl"];
            types?: components["schemas"]["WebhookEventTypes"];
            /** @description A note for people, or null. */
            description?: string | null;
            /** @description Whether events are sent to it. */
            enabled?: boolean;
            created_at?: components["schemas"]["Timestamp"];
            updated_at?: components["schemas"]["Timestamp"];
            /**
             * @description The signing secret (`whsec_` and 32 random bytes in base64). Each delivery carries
             *     `webhook-signature: v1,<base64 HMAC-SHA256>` over `{webhook-id}.{webhook-timestamp}.{body}`
             *     keyed by the bytes after `whsec_` (the Standard Webhooks specification). Only in the
             *     answer that created the endpoint.
             */
            secret?: string;
        };
        /** @description A webhook endpoint as every read shows it, without its secret. */
        Webhook: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["WebhookEntity"], "id" | "owner_id" | "workspace_id" | "url" | "types" | "description" | "enabled" | "created_at" | "updated_at">;
        /** @description A new webhook endpoint, with its secret (this once). */
        WebhookCreated: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["WebhookEntity"], "id" | "owner_id" | "workspace_id" | "url" | "types" | "description" | "enabled" | "created_at" | "updated_at" | "secret">;
        WebhookCreate: {
            /** @description The workspace it belongs to (its admins manage it); the caller's personal workspace when absent. */
            workspace_id?: components["schemas"]["Id"];
            url: components["schemas"]["WebhookUrl"];
            types?: components["schemas"]["WebhookEventTypes"];
            description?: components["schemas"]["WebhookDescription"];
        };
        /** @description The fields to change; at least one. */
        WebhookUpdate: {
            url?: components["schemas"]["WebhookUrl"];
            types?: components["schemas"]["WebhookEventTypes"];
            /** @description A note for people, up to 500 characters; null removes it. */
            description?: string | null;
            /** @description Whether events are sent to it. */
            enabled?: boolean;
        };
        WebhookItem: {
            /** @description The endpoint. */
            data: components["schemas"]["Webhook"];
            meta: components["schemas"]["Meta"];
        };
        WebhookCreatedItem: {
            /** @description The endpoint, with its secret. */
            data: components["schemas"]["WebhookCreated"];
            meta: components["schemas"]["Meta"];
        };
        WebhookCollection: {
            /** @description The endpoints of this page, newest first. */
            data: components["schemas"]["Webhook"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /**
         * @description A member's role, each with the rights of those before it: `viewer` reads; `operator` also
         *     changes agents, tasks and agent keys; `admin` also manages webhooks, invitations and
         *     members who are not owners and renames the workspace; `owner` also makes and removes owners
         *     and deletes the workspace.
         * @enum {string}
         */
        WorkspaceRole: "viewer" | "operator" | "admin" | "owner";
        /** @description 1 to 100 characters once surrounding white space is trimmed (the service trims it). */
        WorkspaceName: string;
        /** @description A workspace, the unit a fleet is shared in. */
        WorkspaceEntity: {
            id?: components["schemas"]["Id"];
            name?: components["schemas"]["WorkspaceName"];
            /**
             * @description `personal`: a user's own, made at sign-up; `shared`: made on request; `service`: where service keys' agents go.
             * @enum {string}
             */
            kind?: "personal" | "shared" | "service";
            /** @description The caller's role in it; null for a platform admin or a service key that is not a member. */
            role?: components["schemas"]["WorkspaceRole"] | null;
            created_at?: components["schemas"]["Timestamp"];
            updated_at?: components["schemas"]["Timestamp"];
        };
        /** @description A workspace as every read shows it, with the caller's role. */
        Workspace: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["WorkspaceEntity"], "id" | "name" | "kind" | "role" | "created_at" | "updated_at">;
        WorkspaceCreate: {
            name: components["schemas"]["WorkspaceName"];
        };
        WorkspaceUpdate: {
            name: components["schemas"]["WorkspaceName"];
        };
        WorkspaceItem: {
            data: components["schemas"]["Workspace"];
            meta: components["schemas"]["Meta"];
        };
        WorkspaceCollection: {
            /** @description The workspaces of this page, newest first. */
            data: components["schemas"]["Workspace"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /** @description A member of a workspace. */
        WorkspaceMember: {
            user_id: components["schemas"]["Id"];
            /** @description The user's name. */
            name: string;
            /** @description The user's e-mail address. */
            email: string;
            role: components["schemas"]["WorkspaceRole"];
            /** @description When they joined. */
            created_at: components["schemas"]["Timestamp"];
            /** @description When their role last changed. */
            updated_at: components["schemas"]["Timestamp"];
        };
        WorkspaceMemberUpdate: {
            role: components["schemas"]["WorkspaceRole"];
        };
        WorkspaceMemberItem: {
            data: components["schemas"]["WorkspaceMember"];
            meta: components["schemas"]["Meta"];
        };
        WorkspaceMemberCollection: {
            /** @description The members of this page, by when they joined. */
            data: components["schemas"]["WorkspaceMember"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /** @description An invitation to join a workspace; its token is shown once, when it is created. */
        InvitationEntity: {
            id?: components["schemas"]["Id"];
            workspace_id?: components["schemas"]["Id"];
            /** @description Who may accept it (stored lower-case). */
            email?: string;
            role?: components["schemas"]["WorkspaceRole"];
            /** @description The user who invited; null when a service key did. */
            invited_by?: components["schemas"]["NullableId"];
            created_at?: components["schemas"]["Timestamp"];
            /** @description When it stops working (7 days after it was made). */
            expires_at?: components["schemas"]["Timestamp"];
            /** @description What the invited user sends to accept it. Only in the answer that created it. */
            token?: string;
        };
        /** @description An invitation as reads show it, without its token. */
        Invitation: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["InvitationEntity"], "id" | "workspace_id" | "email" | "role" | "invited_by" | "created_at" | "expires_at">;
        /** @description A new invitation, with its token (this once). */
        InvitationCreated: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["InvitationEntity"], "id" | "workspace_id" | "email" | "role" | "invited_by" | "created_at" | "expires_at" | "token">;
        InvitationCreate: {
            email: components["schemas"]["Email"];
            role: components["schemas"]["WorkspaceRole"];
        };
        InvitationAccept: {
            /** @description The invitation's token. */
            token: string;
        };
        InvitationCreatedItem: {
            data: components["schemas"]["InvitationCreated"];
            meta: components["schemas"]["Meta"];
        };
        InvitationItem: {
            data: components["schemas"]["Invitation"];
            meta: components["schemas"]["Meta"];
        };
        InvitationCollection: {
            /** @description The pending invitations of this page, newest first. */
            data: components["schemas"]["Invitation"][];
            meta: components["schemas"]["CursorMeta"];
        };
        /**
         * @description `pending` until an attempt succeeds (`succeeded`: the endpoint answered 2xx in time) or the
         *     retry schedule is spent (`failed`).
         * @enum {string}
         */
        WebhookDeliveryStatus: "pending" | "succeeded" | "failed";
        /** @description One POST of the event to the endpoint. */
        WebhookAttempt: {
            attempted_at: components["schemas"]["Timestamp"];
            /** @description The HTTP status the endpoint answered; null when it answered none (refused, unreachable, timed out). */
            status_code: number | null;
            /** @description Why the attempt failed; null when it succeeded. */
            error: string | null;
            /** @description Milliseconds from the start of the attempt to its answer (or its failure). */
            duration_ms: number;
        };
        /** @description One event on its way to one endpoint, and every attempt to deliver it. */
        WebhookDeliveryEntity: {
            id?: components["schemas"]["Id"];
            /** @description The endpoint. */
            webhook_id?: components["schemas"]["Id"];
            /** @description The event's id, sent as `webhook-id` on every attempt. */
            event_id?: string;
            event_type?: components["schemas"]["EventType"];
            status?: components["schemas"]["WebhookDeliveryStatus"];
            /** @description How many attempts were made. */
            attempts?: number;
            /** @description The status the last attempt was answered with; null before the first or when none came. */
            last_status_code?: number | null;
            /** @description Why the last attempt failed; null when it did not, or before the first. */
            last_error?: string | null;
            /** @description When the next attempt is due; null once the delivery succeeded or failed. */
            next_attempt_at?: components["schemas"]["NullableTimestamp"];
            created_at?: components["schemas"]["Timestamp"];
            updated_at?: components["schemas"]["Timestamp"];
            /** @description Every attempt, oldest first. */
            attempt_log?: components["schemas"]["WebhookAttempt"][];
        };
        /** @description A delivery with its attempts. */
        WebhookDelivery: {
            id: components["schemas"]["Id"];
        } & WithRequired<components["schemas"]["WebhookDeliveryEntity"], "id" | "webhook_id" | "event_id" | "event_type" | "status" | "attempts" | "last_status_code" | "last_error" | "next_attempt_at" | "created_at" | "updated_at" | "attempt_log">;
        WebhookDeliveryCollection: {
            /** @description The deliveries of this page, newest first. */
            data: components["schemas"]["WebhookDelivery"][];
            meta: components["schemas"]["CursorMeta"];
        };
        WebhookDeliveryItem: {
            /** @description The delivery, with its attempts. */
            data: components["schemas"]["WebhookDelivery"];
            meta: components["schemas"]["Meta"];
        };
    };
    responses: {
        /** @description The representation has not changed since the `If-None-Match` / `If-Modified-Since` given. */
        NotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description `If-Match` named a version that is no longer current. */
        PreconditionFailed: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "precondition_failed";
                };
            };
        };
        /** @description No such resource (or not yours). */
        ApiNotFound: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "NOT_FOUND";
                    };
                };
            };
        };
        /** @description `If-Match` named a version that is no longer current (`PRECONDITION_FAILED`). */
        ApiPreconditionFailed: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "PRECONDITION_FAILED";
                    };
                };
            };
        };
        /** @description Malformed JSON, or a value the handler rejected (`validation_error`). */
        BadRequest: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "validation_error",
                 *       "message": "Malformed JSON in request body"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "validation_error";
                    /** @description The values the handler rejected, when there were any (not for malformed JSON). */
                    details?: {
                        /** @description Each value the handler rejected, and why. */
                        fields: components["schemas"]["FieldError"][];
                    };
                };
            };
        };
        /**
         * @description The request breaks this document's schema (a body field missing, unknown or of the
         *     wrong type or range, or a query value out of range). `details.fields` names each one.
         */
        UnprocessableEntity: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "validation_error",
                 *       "message": "Request validation failed",
                 *       "details": {
                 *         "fields": [
                 *           {
                 *             "field": "name",
                 *             "in": "body",
                 *             "message": "must NOT have fewer than 1 characters"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description No such agent. */
        AgentNotFound: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "not_found",
                 *       "message": "Agent not found",
                 *       "detail": "Agent not found"
                 *     }
                 */
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description No such agent, or no such task under this agent. */
        AgentOrTaskNotFound: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "not_found",
                 *       "message": "Task not found",
                 *       "detail": "Task not found"
                 *     }
                 */
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description The requested change is not allowed in the resource's current state. */
        StateConflict: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "state_conflict",
                 *       "message": "Cannot change agent status from paused to error",
                 *       "details": {
                 *         "from": "paused",
                 *         "to": "error"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["StateConflictError"];
            };
        };
        /**
         * @description The change is not allowed in the resource's current state (`state_conflict`), or it would
         *     take the agent or its owner beyond a quota (`quota_exceeded`, `details` as `QuotaUsage`).
         *     Nothing was written. Service agents (created with an API key) count against no user:
         *     only the tasks-per-agent quota applies to them.
         */
        StateConflictOrQuota: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["StateConflictError"] | components["schemas"]["QuotaExceededError"];
            };
        };
        /** @description The request body is larger than the configured limit (`MAX_BODY_BYTES`). */
        PayloadTooLarge: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "payload_too_large";
                };
            };
        };
        /** @description The request body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "unsupported_media_type";
                };
            };
        };
        /** @description An unexpected fault. Nothing internal is disclosed; the request id finds the log line. */
        InternalError: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "internal_error",
                 *       "message": "An unexpected error occurred"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "internal_error";
                };
            };
        };
        /**
         * @description No credential (`Not authenticated`) or one that failed verification
         *     (`Could not validate credentials`).
         */
        Unauthorized: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /**
                 * @description `Bearer` when no credential was sent; when one was sent and refused, RFC 6750's
                 *     `Bearer error="invalid_token", error_description="..."`, whose description says
                 *     whether the token expired (get a new one) or is not valid (unknown, forged, revoked, or
                 *     its session ended). The body keeps the same detail text for both.
                 */
                "WWW-Authenticate"?: string;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "unauthorized",
                 *       "message": "Could not validate credentials",
                 *       "detail": "Could not validate credentials"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "unauthorized";
                };
            };
        };
        /**
         * @description A wrong API key (`Invalid API key`), a cookie-authenticated change from an origin
         *     that is not allowed, or an agent key (or its token) outside what it may do: an
         *     operation that is not open to agent keys, or one whose scope the key lacks.
         */
        Forbidden: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "forbidden",
                 *       "message": "Invalid API key",
                 *       "detail": "Invalid API key"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "forbidden";
                };
            };
        };
        /** @description The request breaks the schema or a rule; `details` lists `{field, message}`. */
        ApiValidationError: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "VALIDATION_ERROR",
                 *         "message": "Request validation failed",
                 *         "details": [
                 *           {
                 *             "field": "email",
                 *             "message": "must match format \"email\""
                 *           }
                 *         ],
                 *         "requestId": "0b6c4a3e-1a4f-4c55-9d0c-5d6f1c1a2b3c"
                 *       }
                 *     }
                 */
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "VALIDATION_ERROR";
                        /** @description Each offending field or parameter, the first 20 (absent for malformed JSON or a request Node's parser refused); `detailsOmitted` says how many more there were. */
                        details?: components["schemas"]["ApiFieldError"][];
                    };
                };
            };
        };
        /** @description No credential, or one that failed verification. */
        ApiUnauthorized: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /**
                 * @description `Bearer` when no credential was sent; when one was sent and refused, RFC 6750's
                 *     `Bearer error="invalid_token", error_description="..."`, whose description says
                 *     whether the token expired (get a new one) or is not valid (unknown, forged, revoked, or
                 *     its session ended). The body keeps the same detail text for both.
                 */
                "WWW-Authenticate"?: string;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
        };
        /** @description The credential is valid but may not do this. */
        ApiForbidden: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "FORBIDDEN";
                    };
                };
            };
        };
        /** @description A duplicate (an e-mail already in use) or a state conflict. */
        ApiConflict: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiConflictError"];
            };
        };
        /**
         * @description A state conflict (`CONFLICT`), or the write would take its owner beyond a quota
         *     (`QUOTA_EXCEEDED`, `details` as `QuotaUsage`: the quota, its `limit`, the current `usage`).
         *     Nothing was written. Service agents (created with an API key) count against no user:
         *     only the tasks-per-agent quota applies to them.
         */
        ApiConflictOrQuota: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "QUOTA_EXCEEDED",
                 *         "message": "Quota exceeded: the owner stores 104800000 of 104857600 bytes and this write needs 131072 more",
                 *         "details": {
                 *           "quota": "stored_bytes_per_user",
                 *           "limit": 104857600,
                 *           "usage": 104800000,
                 *           "requested": 131072
                 *         },
                 *         "requestId": "0b6c4a3e-1a4f-4c55-9d0c-5d6f1c1a2b3c"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ApiConflictError"] | components["schemas"]["ApiQuotaExceededError"];
            };
        };
        /**
         * @description `LEASE_LOST`: the lease is no longer `active` (`details.reason`: `expired`, `cancelled`,
         *     `completed` or `released`; `details.lease_status` is its status now) and nothing was
         *     written. Or `CONFLICT`: the task can no longer change. Or `QUOTA_EXCEEDED`: the outcome
         *     (`result`, `error`) would take the agent's owner beyond the stored-bytes quota, as the
         *     same write through the task would (`details` as `QuotaUsage`); the lease stays active.
         */
        ApiLeaseConflict: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "LEASE_LOST",
                 *         "message": "The lease expired and its task was queued again",
                 *         "details": {
                 *           "reason": "expired",
                 *           "lease_status": "expired"
                 *         },
                 *         "requestId": "0b6c4a3e-1a4f-4c55-9d0c-5d6f1c1a2b3c"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ApiLeaseLostError"] | components["schemas"]["ApiConflictError"] | components["schemas"]["ApiQuotaExceededError"];
            };
        };
        /**
         * @description `EVENTS_EXPIRED`: events after the id asked for have been pruned (they are kept for
         *     `EVENT_RETENTION_HOURS`), so resuming from it would skip some. `details.pruned_through` is
         *     the newest pruned id: read again without `after` (or `Last-Event-ID`).
         */
        ApiEventsExpired: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "EVENTS_EXPIRED",
                 *         "message": "Events after 41 are no longer kept; read again from the oldest kept",
                 *         "details": {
                 *           "after": "41",
                 *           "pruned_through": "1200"
                 *         },
                 *         "requestId": "0b6c4a3e-1a4f-4c55-9d0c-5d6f1c1a2b3c"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ApiEventsExpiredError"];
            };
        };
        /**
         * @description `IDEMPOTENCY_KEY_REUSED`: this `Idempotency-Key` was sent by the same principal within its
         *     lifetime with another method, path or body. Nothing was done: send this request with a key
         *     of its own.
         */
        ApiIdempotencyKeyReused: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiIdempotencyKeyReusedError"];
            };
        };
        /**
         * @description `IDEMPOTENCY_KEY_IN_USE`: the first request with this `Idempotency-Key` is still running.
         *     Nothing was done: send the same request again after `Retry-After` seconds to get its answer.
         */
        ApiIdempotencyKeyInUse: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiIdempotencyKeyInUseError"];
            };
        };
        /**
         * @description A duplicate or a state conflict (`CONFLICT`), or the first request with this
         *     `Idempotency-Key` is still running (`IDEMPOTENCY_KEY_IN_USE`, with `Retry-After`). Nothing
         *     was done.
         */
        ApiConflictOrKeyInUse: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before sending the request again (with `IDEMPOTENCY_KEY_IN_USE` only). */
                "Retry-After"?: number;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiConflictError"] | components["schemas"]["ApiIdempotencyKeyInUseError"];
            };
        };
        /**
         * @description The write would take its owner beyond a quota (`QUOTA_EXCEEDED`, `details` as
         *     `QuotaUsage`), or the first request with this `Idempotency-Key` is still running
         *     (`IDEMPOTENCY_KEY_IN_USE`, with `Retry-After`). Nothing was written. Service agents (created
         *     with an API key) count against no user.
         */
        ApiQuotaOrKeyInUse: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before sending the request again (with `IDEMPOTENCY_KEY_IN_USE` only). */
                "Retry-After"?: number;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiQuotaExceededError"] | components["schemas"]["ApiIdempotencyKeyInUseError"];
            };
        };
        /**
         * @description A state conflict (`CONFLICT`), a quota the write would exceed (`QUOTA_EXCEEDED`, `details`
         *     as `QuotaUsage`), or the first request with this `Idempotency-Key` is still running
         *     (`IDEMPOTENCY_KEY_IN_USE`, with `Retry-After`). Nothing was written. Service agents (created
         *     with an API key) count against no user: only the tasks-per-agent quota applies to them.
         */
        ApiConflictQuotaOrKeyInUse: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before sending the request again (with `IDEMPOTENCY_KEY_IN_USE` only). */
                "Retry-After"?: number;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiConflictError"] | components["schemas"]["ApiQuotaExceededError"] | components["schemas"]["ApiIdempotencyKeyInUseError"];
            };
        };
        /**
         * @description The request breaks this document's schema (`validation_error`: a body field missing,
         *     unknown or of the wrong type or range, a query value out of range, a malformed
         *     `Idempotency-Key`; `details.fields` names each one), or this `Idempotency-Key` was sent
         *     before with another method, path or body (`idempotency_key_reused`; nothing was done).
         */
        UnprocessableOrKeyReused: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ValidationError"] | components["schemas"]["IdempotencyKeyReusedError"];
            };
        };
        /**
         * @description The write would take its owner beyond a quota (`quota_exceeded`; `details` names the
         *     quota, its `limit` and the current `usage`), or the first request with this
         *     `Idempotency-Key` is still running (`idempotency_key_in_use`, with `Retry-After`). Nothing
         *     was written. Service agents (created with an API key) count against no user.
         */
        QuotaOrKeyInUse: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before sending the request again (with `IDEMPOTENCY_KEY_IN_USE` only). */
                "Retry-After"?: number;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["QuotaExceededError"] | components["schemas"]["IdempotencyKeyInUseError"];
            };
        };
        /**
         * @description The change is not allowed in the resource's current state (`state_conflict`), it would
         *     take the agent or its owner beyond a quota (`quota_exceeded`, `details` as `QuotaUsage`), or
         *     the first request with this `Idempotency-Key` is still running (`idempotency_key_in_use`,
         *     with `Retry-After`). Nothing was written. Service agents (created with an API key) count
         *     against no user: only the tasks-per-agent quota applies to them.
         */
        StateConflictQuotaOrKeyInUse: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before sending the request again (with `IDEMPOTENCY_KEY_IN_USE` only). */
                "Retry-After"?: number;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["StateConflictError"] | components["schemas"]["QuotaExceededError"] | components["schemas"]["IdempotencyKeyInUseError"];
            };
        };
        /** @description The body is larger than `MAX_BODY_BYTES`. */
        ApiPayloadTooLarge: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
        };
        /** @description The body is not `application/json`. */
        ApiUnsupportedMediaType: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
        };
        /** @description An unexpected fault; the message is always `Internal Server Error`. */
        ApiInternalError: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "INTERNAL_ERROR",
                 *         "message": "Internal Server Error",
                 *         "requestId": "0b6c4a3e-1a4f-4c55-9d0c-5d6f1c1a2b3c"
                 *       }
                 *     }
                 */
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "INTERNAL_ERROR";
                    };
                };
            };
        };
        /** @description Too many requests counted against this request's credential or client address (`rate_limit_exceeded`); retry after `Retry-After` seconds. */
        RateLimited: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "rate_limit_exceeded";
                };
            };
        };
        /** @description Too many requests counted against this request's credential or client address (`RATE_LIMIT_EXCEEDED`); retry after `Retry-After` seconds. */
        ApiRateLimited: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "RATE_LIMIT_EXCEEDED";
                    };
                };
            };
        };
        /** @description The file; cached for an hour. */
        StaticFile: {
            headers: {
                /** @description `public, max-age=3600`. */
                "Cache-Control"?: string;
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "text/javascript": string;
                "application/javascript": string;
                "text/css": string;
                "image/png": string;
            };
        };
        /** @description The file; its name changes with its content, so it is cached for a year. */
        HashedFile: {
            headers: {
                /** @description `public, max-age=31536000, immutable`. */
                "Cache-Control"?: string;
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "text/javascript": string;
                "application/javascript": string;
                "text/css": string;
                "image/png": string;
                "image/svg+xml": string;
                "image/x-icon": string;
            };
        };
        /**
         * @description No operation of this document has this path. Paths are exact and case-sensitive: `/Agents`,
         *     `/agents/` and `//agents` are not `/agents`. Under `/api` the body is `ApiError`
         *     (`NOT_FOUND`); on `/token/` and every other path it is `Error`.
         */
        NotFound: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "not_found",
                 *       "message": "Not Found",
                 *       "detail": "Not Found"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "not_found";
                };
            };
        };
        /**
         * @description The path exists but not with this method. `Allow` lists the methods it has (HEAD wherever
         *     GET is, and OPTIONS). Under `/api` the body is `ApiError` (`METHOD_NOT_ALLOWED`), on
         *     `/token` `OAuthError` (`invalid_request`), elsewhere `Error` (`method_not_allowed`).
         */
        MethodNotAllowed: {
            headers: {
                /** @description The methods this path has. */
                Allow?: string;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "method_not_allowed";
                };
            };
        };
        /** @description The path exists but not with this method (`METHOD_NOT_ALLOWED`); `Allow` lists the methods it has. */
        ApiMethodNotAllowed: {
            headers: {
                /** @description The methods this path has. */
                Allow?: string;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "METHOD_NOT_ALLOWED";
                    };
                };
            };
        };
        /**
         * @description A request Node's HTTP parser refuses before any operation runs (`validation_error`): a
         *     malformed request line or header, `Content-Length` together with `Transfer-Encoding`, an
         *     invalid `Content-Length`. The connection is closed after the answer; `X-Request-ID` names
         *     the log line.
         */
        RequestRefused: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "validation_error",
                 *       "message": "Content-Length and Transfer-Encoding must not both be sent"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "validation_error";
                };
            };
        };
        /**
         * @description The request body did not arrive within `HTTP_REQUEST_TIMEOUT_MS` (`request_timeout`); the
         *     connection is closed after the answer. Operations that read a body declare it. Headers that
         *     do not end within `HTTP_HEADERS_TIMEOUT_MS` name no operation yet: that 408 is always in
         *     this shape, whatever the path (`x-unrouted-responses`).
         */
        RequestTimeout: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "request_timeout",
                 *       "message": "The request was not received in time"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "request_timeout";
                };
            };
        };
        /** @description An `Expect` header other than `100-continue` (`expectation_failed`), answered before any operation runs; the connection is closed after the answer. */
        ExpectationFailed: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "expectation_failed",
                 *       "message": "Only Expect 100-continue is supported"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "expectation_failed";
                };
            };
        };
        /** @description The request line and headers exceed the HTTP parser's limit, 16 KiB (`headers_too_large`), answered before any operation runs; the connection is closed after the answer. */
        HeadersTooLarge: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "headers_too_large",
                 *       "message": "Request headers are too large"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "headers_too_large";
                };
            };
        };
        /**
         * @description The request body did not arrive within `HTTP_REQUEST_TIMEOUT_MS` (`REQUEST_TIMEOUT`); the
         *     connection is closed after the answer. Headers that do not end within
         *     `HTTP_HEADERS_TIMEOUT_MS` name no operation yet: that 408 is the root surface's
         *     `RequestTimeout` (`x-unrouted-responses`).
         */
        ApiRequestTimeout: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "REQUEST_TIMEOUT",
                 *         "message": "The request was not received in time",
                 *         "requestId": "0b6c4a3e-1a4f-4c55-9d0c-5d6f1c1a2b3c"
                 *       }
                 *     }
                 */
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "REQUEST_TIMEOUT";
                    };
                };
            };
        };
        /** @description An `Expect` header other than `100-continue` (`EXPECTATION_FAILED`), answered before any operation runs; the connection is closed after the answer. */
        ApiExpectationFailed: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "EXPECTATION_FAILED",
                 *         "message": "Only Expect 100-continue is supported",
                 *         "requestId": "0b6c4a3e-1a4f-4c55-9d0c-5d6f1c1a2b3c"
                 *       }
                 *     }
                 */
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "EXPECTATION_FAILED";
                    };
                };
            };
        };
        /** @description The request line and headers exceed the HTTP parser's limit, 16 KiB (`HEADERS_TOO_LARGE`), answered before any operation runs; the connection is closed after the answer. */
        ApiHeadersTooLarge: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "HEADERS_TOO_LARGE",
                 *         "message": "Request headers are too large",
                 *         "requestId": "0b6c4a3e-1a4f-4c55-9d0c-5d6f1c1a2b3c"
                 *       }
                 *     }
                 */
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "HEADERS_TOO_LARGE";
                    };
                };
            };
        };
        /**
         * @description A request the HTTP parser refuses before the token endpoint runs, in RFC 6749's shape
         *     (`invalid_request`): 408 (the body not received within `HTTP_REQUEST_TIMEOUT_MS`), 417 (an
         *     `Expect` other than `100-continue`), 431 (headers over 16 KiB). The connection is closed
         *     after the answer.
         */
        TokenRequestRefused: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "invalid_request",
                 *       "error_description": "Request headers are too large"
                 *     }
                 */
                "application/json": components["schemas"]["OAuthError"] & {
                    /** @constant */
                    error?: "invalid_request";
                };
            };
        };
        /** @description A dependency (the database) is unavailable (`service_unavailable`); retry after `Retry-After` seconds. */
        ServiceUnavailable: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "service_unavailable",
                 *       "message": "The database is unavailable; retry shortly"
                 *     }
                 */
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    error?: "service_unavailable";
                };
            };
        };
        /** @description A dependency (the database) is unavailable (`SERVICE_UNAVAILABLE`); retry after `Retry-After` seconds. */
        ApiServiceUnavailable: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: components["schemas"]["ApiErrorObject"] & {
                        /** @constant */
                        code?: "SERVICE_UNAVAILABLE";
                    };
                };
            };
        };
        /**
         * @description A failure of the token endpoint that is not a protocol error, still in RFC 6749's shape:
         *     413 and 415 `invalid_request`, 500 `server_error`.
         */
        TokenError: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Always `no-store`. */
                "Cache-Control"?: string;
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "invalid_request",
                 *       "error_description": "Request body must be application/x-www-form-urlencoded"
                 *     }
                 */
                "application/json": components["schemas"]["OAuthError"] & {
                    /** @enum {unknown} */
                    error?: "invalid_request" | "server_error";
                };
            };
        };
        /**
         * @description Too many requests (429), or a dependency is unavailable (503): `temporarily_unavailable`
         *     (RFC 6749 section 4.1.2.1); retry after `Retry-After` seconds.
         */
        TokenRetryLater: {
            headers: {
                /** @description Always `no-store`. */
                "Cache-Control"?: string;
                "Retry-After": components["headers"]["Retry-After"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "temporarily_unavailable",
                 *       "error_description": "Too many requests, retry in 60 s"
                 *     }
                 */
                "application/json": components["schemas"]["OAuthError"] & {
                    /** @constant */
                    error?: "temporarily_unavailable";
                };
            };
        };
    };
    parameters: {
        /** @description The user's id. */
        UserId: string;
        /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
        Cursor: string;
        /**
         * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
         *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
         *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
         *     continues after the last item given. Below 1 or not an integer answers 400.
         */
        CursorLimit: number;
        /** @description Page number, from 1. */
        Page: number;
        /** @description Page size. */
        PageLimit: number;
        /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
        IfMatch: string;
        /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
        IfNoneMatch: string;
        /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
        IfModifiedSince: string;
        /** @description Only agents with this status. */
        AgentStatusQuery: components["schemas"]["AgentStatus"];
        /** @description Only tasks with this status. */
        TaskStatusQuery: components["schemas"]["TaskStatus"];
        /** @description `tasks` embeds each agent's 10 newest tasks as summaries (`TaskSummary`: no description, input, result or error; read the task for those); `task_counts` adds how many tasks the agent has in each status. */
        AgentInclude: "tasks" | "task_counts";
        /** @description `posts` embeds each user's 10 newest posts as summaries (`PostSummary`: no body; list the posts for that). */
        UserInclude: "posts";
        /** @description Only these fields of each item, comma-separated (`id` is always included). */
        AgentFields: ("id" | "owner_id" | "name" | "type" | "status" | "created_at" | "updated_at" | "max_concurrency")[];
        /** @description Only these fields of each item, comma-separated (`id` is always included). */
        TaskFields: ("id" | "agent_id" | "title" | "description" | "input" | "priority" | "status" | "result" | "error" | "created_at" | "updated_at" | "started_at" | "finished_at" | "attempts" | "max_attempts" | "available_at" | "progress" | "lease_id" | "last_error" | "usage" | "run_at" | "timeout_seconds" | "deadline_at" | "schedule_id")[];
        /** @description Only these fields of each item, comma-separated (`id` is always included; `password` is write-only and never a field). */
        UserFields: ("id" | "name" | "email" | "age" | "role" | "created_at" | "updated_at")[];
        /** @description Only these fields of each item, comma-separated (`id` is always included). */
        PostFields: ("id" | "user_id" | "title" | "body" | "created_at" | "updated_at")[];
        /** @description Sort by one field; a leading minus sorts descending. Default: `-created_at`. */
        AgentSort: "created_at" | "-created_at" | "updated_at" | "-updated_at" | "name" | "-name" | "type" | "-type" | "status" | "-status";
        /** @description Sort by one field; a leading minus sorts descending. Default: `-created_at`. */
        TaskSort: "created_at" | "-created_at" | "updated_at" | "-updated_at" | "title" | "-title" | "status" | "-status" | "priority" | "-priority" | "attempts" | "-attempts" | "available_at" | "-available_at";
        /** @description Sort by one field; a leading minus sorts descending. Default: `created_at`. */
        UserSort: "created_at" | "-created_at" | "updated_at" | "-updated_at" | "name" | "-name" | "email" | "-email" | "age" | "-age";
        /** @description Sort by one field; a leading minus sorts descending. Default: `-created_at`. */
        PostSort: "created_at" | "-created_at" | "updated_at" | "-updated_at" | "title" | "-title";
        /** @description Compares `name`: `filter[name][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
        AgentFilterName: components["schemas"]["StringFilter"];
        /** @description Compares `type`: `filter[type][op]=value` with op `eq`, `ne`, `in`; `in` takes a comma-separated list. */
        AgentFilterType: components["schemas"]["AgentTypeFilter"];
        /** @description Compares `status`: `filter[status][op]=value` with op `eq`, `ne`, `in`; `in` takes a comma-separated list. */
        AgentFilterStatus: components["schemas"]["AgentStatusFilter"];
        /** @description Compares `created_at`: `filter[created_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        AgentFilterCreatedAt: components["schemas"]["TimeFilter"];
        /** @description Compares `updated_at`: `filter[updated_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        AgentFilterUpdatedAt: components["schemas"]["TimeFilter"];
        /** @description Compares `title`: `filter[title][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
        TaskFilterTitle: components["schemas"]["StringFilter"];
        /** @description Compares `status`: `filter[status][op]=value` with op `eq`, `ne`, `in`; `in` takes a comma-separated list. */
        TaskFilterStatus: components["schemas"]["TaskStatusFilter"];
        /** @description Compares `priority`: `filter[priority][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
        TaskFilterPriority: components["schemas"]["IntegerFilter"];
        /** @description Compares `created_at`: `filter[created_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        TaskFilterCreatedAt: components["schemas"]["TimeFilter"];
        /** @description Compares `updated_at`: `filter[updated_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        TaskFilterUpdatedAt: components["schemas"]["TimeFilter"];
        /** @description Compares `started_at`: `filter[started_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        TaskFilterStartedAt: components["schemas"]["TimeFilter"];
        /** @description Compares `finished_at`: `filter[finished_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        TaskFilterFinishedAt: components["schemas"]["TimeFilter"];
        /** @description Compares `attempts`: `filter[attempts][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
        TaskFilterAttempts: components["schemas"]["IntegerFilter"];
        /** @description Compares `max_attempts`: `filter[max_attempts][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
        TaskFilterMaxAttempts: components["schemas"]["IntegerFilter"];
        /** @description Compares `available_at`: `filter[available_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        TaskFilterAvailableAt: components["schemas"]["TimeFilter"];
        /** @description Compares `name`: `filter[name][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
        UserFilterName: components["schemas"]["StringFilter"];
        /** @description Compares `email`: `filter[email][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
        UserFilterEmail: components["schemas"]["StringFilter"];
        /** @description Compares `age`: `filter[age][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
        UserFilterAge: components["schemas"]["IntegerFilter"];
        /** @description Compares `role`: `filter[role][op]=value` with op `eq`, `ne`, `in`; `in` takes a comma-separated list. */
        UserFilterRole: components["schemas"]["UserRoleFilter"];
        /** @description Compares `created_at`: `filter[created_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        UserFilterCreatedAt: components["schemas"]["TimeFilter"];
        /** @description Compares `title`: `filter[title][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
        PostFilterTitle: components["schemas"]["StringFilter"];
        /** @description Compares `created_at`: `filter[created_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        PostFilterCreatedAt: components["schemas"]["TimeFilter"];
        /** @description Compares `updated_at`: `filter[updated_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
        PostFilterUpdatedAt: components["schemas"]["TimeFilter"];
        /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
        AgentId: string;
        /** @description The task's id. An id that names no task of this agent answers 404. */
        TaskId: string;
        /** @description The key's id. An id that names no key of this agent answers 404. */
        KeyId: string;
        /** @description The lease's id. An id that names no lease of this agent answers 404. */
        LeaseId: string;
        /** @description The schedule's id. An id that names no schedule of this agent answers 404. */
        ScheduleId: string;
        /** @description The endpoint's id. An id that names no endpoint the caller manages answers 404. */
        WebhookId: string;
        /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
        WorkspaceId: string;
        /** @description The member's user id. A user who is not a member answers 404. */
        MemberUserId: string;
        /** @description The invitation's id. An id that names no pending invitation of the workspace answers 404. */
        InvitationId: string;
        /** @description Only this workspace's; a workspace the caller is not a member of answers 404. */
        WorkspaceIdQuery: components["schemas"]["Id"];
        /** @description The delivery's id. An id that names no delivery of this endpoint answers 404. */
        WebhookDeliveryId: string;
        /**
         * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
         *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
         *     with the same key from the same principal (the user, API key or agent key; anonymous
         *     sign-ups: the client address), the same method, the same path with its query and the same
         *     body gets the first answer again (its status, body, `Location`, `ETag` and
         *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
         *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
         *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
         *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
         *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
         *     answers are not kept: the same key can be sent again. A malformed key is a schema
         *     violation.
         */
        IdempotencyKey: string;
        /** @description How many items to pass over. */
        Skip: number;
        /**
         * @description How many items to return at most. A page of tasks holds fewer when the next task would
         *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`): advance `skip` by the
         *     number of items received.
         */
        Limit: number;
        /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
        ApiVersion: "1.0";
        /** @description The file's name. */
        StaticFile: string;
    };
    requestBodies: {
        AgentCreate: {
            content: {
                "application/json": components["schemas"]["AgentCreate"];
            };
        };
    };
    headers: {
        /**
         * @description The representation's version, for `If-None-Match` (304) and `If-Match` (412). A write
         *     answers the new version's strong tag, ready for the next `If-Match`.
         */
        ETag: string;
        /** @description When the item (or the newest item of the page) last changed. Not sent with `include`, whose embedded resources change without it. */
        "Last-Modified": string;
        /** @description `private, no-cache` on authenticated reads: caches must revalidate with the ETag. */
        "Cache-Control": string;
        /**
         * @description What is left in the current window of the budget that counted this request (IETF draft-8
         *     `RateLimit`: `"<budget>"; r=<remaining>; t=<seconds until reset>`, the budget being `api`
         *     or `root` for client addresses, `user` for a person under `/api` (`root` elsewhere),
         *     `service-key` for an API key, `agent-key` for an agent key: see `x-http-rules`). Sent on every response of a limited operation that was
         *     counted, while the counter store answers (without Redis the requests pass uncounted and
         *     unannounced).
         */
        RateLimit: string;
        /**
         * @description The budget that counted this request (IETF draft-8 `RateLimit-Policy`: `"<budget>";
         *     q=<requests>; w=<window seconds>; pk=:<partition key>:`, the budgets as in `RateLimit`,
         *     each with its own configured size). Sent with `RateLimit`.
         */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before retrying (until the rate-limit window resets, or the dependency is expected back). */
        "Retry-After": number;
        /**
         * @description `true` when this answer is the kept answer of an earlier request with the same
         *     `Idempotency-Key` (the operation did not run again); absent otherwise.
         */
        "Idempotent-Replayed": "true";
        /**
         * @description The request's id: the caller's `X-Request-ID` when it is 1 to 128 characters of
         *     letters, digits and `._:-`, otherwise one generated by the service. It is logged too.
         */
        "X-Request-ID": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAgents: {
        parameters: {
            query?: {
                /** @description How many items to pass over. */
                skip?: components["parameters"]["Skip"];
                /**
                 * @description How many items to return at most. A page of tasks holds fewer when the next task would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`): advance `skip` by the
                 *     number of items received.
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Only agents with this status. */
                status?: components["schemas"]["AgentStatus"];
            };
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agents of this page (possibly none). */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["RequestRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            412: components["responses"]["PreconditionFailed"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["AgentCreate"];
        responses: {
            /** @description The agent was created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description Path of the new agent. */
                    Location: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["QuotaOrKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableOrKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["RequestRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AgentNotFound"];
            412: components["responses"]["PreconditionFailed"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replaceAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["AgentCreate"];
        responses: {
            /** @description The replaced agent. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AgentNotFound"];
            408: components["responses"]["RequestTimeout"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent and all its tasks were deleted. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AgentNotFound"];
            412: components["responses"]["PreconditionFailed"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentUpdate"];
            };
        };
        responses: {
            /** @description The updated agent. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AgentNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["StateConflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listTasks: {
        parameters: {
            query?: {
                /** @description How many items to pass over. */
                skip?: components["parameters"]["Skip"];
                /**
                 * @description How many items to return at most. A page of tasks holds fewer when the next task would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`): advance `skip` by the
                 *     number of items received.
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Only tasks with this status. */
                status?: components["schemas"]["TaskStatus"];
            };
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tasks of this page (possibly none). */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["RequestRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AgentNotFound"];
            412: components["responses"]["PreconditionFailed"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskCreate"];
            };
        };
        responses: {
            /** @description The task was queued. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description Path of the new task. */
                    Location: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AgentNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["StateConflictQuotaOrKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableOrKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["RequestRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AgentOrTaskNotFound"];
            412: components["responses"]["PreconditionFailed"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task was deleted. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AgentOrTaskNotFound"];
            412: components["responses"]["PreconditionFailed"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskUpdate"];
            };
        };
        responses: {
            /** @description The updated task. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AgentOrTaskNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["StateConflictOrQuota"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getProtected: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token's user. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The authenticated user's e-mail. */
                        user: string;
                    };
                };
            };
            400: components["responses"]["RequestRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    issueToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description A bearer token. */
            200: {
                headers: {
                    /** @description Always `no-store` (RFC 6749 section 5.1). */
                    "Cache-Control"?: string;
                    /** @description The device cookie of a password grant (see `POST /api/auth/login`). */
                    "Set-Cookie"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description The request is malformed, the grant type unsupported, or the credentials wrong (RFC 6749 section 5.2). */
            400: {
                headers: {
                    /** @description Always `no-store`. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_grant",
                     *       "error_description": "Invalid username or password"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description grant_type `client_credentials`: the client (agent key) could not be authenticated (RFC 6749 section 5.2, `invalid_client`). */
            401: {
                headers: {
                    /** @description `Basic realm="agent-fleet"`: how to send the client credentials. */
                    "WWW-Authenticate"?: string;
                    /** @description Always `no-store`. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_client",
                     *       "error_description": "Unknown, revoked or expired agent key"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            408: components["responses"]["TokenRequestRefused"];
            413: components["responses"]["TokenError"];
            415: components["responses"]["TokenError"];
            417: components["responses"]["TokenRequestRefused"];
            429: components["responses"]["TokenRetryLater"];
            431: components["responses"]["TokenRequestRefused"];
            500: components["responses"]["TokenError"];
            503: components["responses"]["TokenRetryLater"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: components["parameters"]["Page"];
                /** @description Page size. */
                limit?: components["parameters"]["PageLimit"];
                /** @description Sort by one field; a leading minus sorts descending. Default: `created_at`. */
                sort?: components["parameters"]["UserSort"];
                /** @description Only these fields of each item, comma-separated (`id` is always included; `password` is write-only and never a field). */
                fields?: components["parameters"]["UserFields"];
                /** @description `posts` embeds each user's 10 newest posts as summaries (`PostSummary`: no body; list the posts for that). */
                include?: components["parameters"]["UserInclude"];
                /** @description Compares `name`: `filter[name][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
                "filter[name]"?: components["parameters"]["UserFilterName"];
                /** @description Compares `email`: `filter[email][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
                "filter[email]"?: components["parameters"]["UserFilterEmail"];
                /** @description Compares `age`: `filter[age][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
                "filter[age]"?: components["parameters"]["UserFilterAge"];
                /** @description Compares `role`: `filter[role][op]=value` with op `eq`, `ne`, `in`; `in` takes a comma-separated list. */
                "filter[role]"?: components["parameters"]["UserFilterRole"];
                /** @description Compares `created_at`: `filter[created_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[created_at]"?: components["parameters"]["UserFilterCreatedAt"];
            };
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserCreate"];
            };
        };
        responses: {
            /** @description The user was created. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description Path of the new user. */
                    Location: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserEnvelope"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflictOrKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getUser: {
        parameters: {
            query?: {
                /** @description Only these fields of each item, comma-separated (`id` is always included; `password` is write-only and never a field). */
                fields?: components["parameters"]["UserFields"];
                /** @description `posts` embeds each user's 10 newest posts as summaries (`PostSummary`: no body; list the posts for that). */
                include?: components["parameters"]["UserInclude"];
            };
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The user's id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserItem"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    replaceUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The user's id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserReplace"];
            };
        };
        responses: {
            /** @description The replaced user. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflict"];
            412: components["responses"]["ApiPreconditionFailed"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The user's id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            409: components["responses"]["ApiConflict"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The user's id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserUpdate"];
            };
        };
        responses: {
            /** @description The updated user. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflict"];
            412: components["responses"]["ApiPreconditionFailed"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listPosts: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
                /** @description Sort by one field; a leading minus sorts descending. Default: `-created_at`. */
                sort?: components["parameters"]["PostSort"];
                /** @description Only these fields of each item, comma-separated (`id` is always included). */
                fields?: components["parameters"]["PostFields"];
                /** @description Compares `title`: `filter[title][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
                "filter[title]"?: components["parameters"]["PostFilterTitle"];
                /** @description Compares `created_at`: `filter[created_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[created_at]"?: components["parameters"]["PostFilterCreatedAt"];
                /** @description Compares `updated_at`: `filter[updated_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[updated_at]"?: components["parameters"]["PostFilterUpdatedAt"];
            };
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The user's id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of posts. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostCollection"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    createPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The user's id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostCreate"];
            };
        };
        responses: {
            /** @description The post. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiQuotaOrKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listAgentsV1: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
                /** @description Only agents with this status. */
                status?: components["parameters"]["AgentStatusQuery"];
                /** @description Sort by one field; a leading minus sorts descending. Default: `-created_at`. */
                sort?: components["parameters"]["AgentSort"];
                /** @description Only these fields of each item, comma-separated (`id` is always included). */
                fields?: components["parameters"]["AgentFields"];
                /** @description `tasks` embeds each agent's 10 newest tasks as summaries (`TaskSummary`: no description, input, result or error; read the task for those); `task_counts` adds how many tasks the agent has in each status. */
                include?: components["parameters"]["AgentInclude"];
                /** @description Only this workspace's; a workspace the caller is not a member of answers 404. */
                workspace_id?: components["parameters"]["WorkspaceIdQuery"];
                /** @description Compares `name`: `filter[name][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
                "filter[name]"?: components["parameters"]["AgentFilterName"];
                /** @description Compares `type`: `filter[type][op]=value` with op `eq`, `ne`, `in`; `in` takes a comma-separated list. */
                "filter[type]"?: components["parameters"]["AgentFilterType"];
                /** @description Compares `status`: `filter[status][op]=value` with op `eq`, `ne`, `in`; `in` takes a comma-separated list. */
                "filter[status]"?: components["parameters"]["AgentFilterStatus"];
                /** @description Compares `created_at`: `filter[created_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[created_at]"?: components["parameters"]["AgentFilterCreatedAt"];
                /** @description Compares `updated_at`: `filter[updated_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[updated_at]"?: components["parameters"]["AgentFilterUpdatedAt"];
            };
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of agents. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentCollection"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    createAgentV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentCreateInWorkspace"];
            };
        };
        responses: {
            /** @description The agent. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description Path of the new agent. */
                    Location: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiQuotaOrKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getAgentV1: {
        parameters: {
            query?: {
                /** @description Only these fields of each item, comma-separated (`id` is always included). */
                fields?: components["parameters"]["AgentFields"];
                /** @description `tasks` embeds each agent's 10 newest tasks as summaries (`TaskSummary`: no description, input, result or error; read the task for those); `task_counts` adds how many tasks the agent has in each status. */
                include?: components["parameters"]["AgentInclude"];
            };
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentItem"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    replaceAgentV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentCreate"];
            };
        };
        responses: {
            /** @description The agent. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflict"];
            412: components["responses"]["ApiPreconditionFailed"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    deleteAgentV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            409: components["responses"]["ApiConflict"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    updateAgentV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentUpdate"];
            };
        };
        responses: {
            /** @description The agent. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflict"];
            412: components["responses"]["ApiPreconditionFailed"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listTasksV1: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
                /** @description Only tasks with this status. */
                status?: components["parameters"]["TaskStatusQuery"];
                /** @description Sort by one field; a leading minus sorts descending. Default: `-created_at`. */
                sort?: components["parameters"]["TaskSort"];
                /** @description Only these fields of each item, comma-separated (`id` is always included). */
                fields?: components["parameters"]["TaskFields"];
                /** @description Compares `title`: `filter[title][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
                "filter[title]"?: components["parameters"]["TaskFilterTitle"];
                /** @description Compares `status`: `filter[status][op]=value` with op `eq`, `ne`, `in`; `in` takes a comma-separated list. */
                "filter[status]"?: components["parameters"]["TaskFilterStatus"];
                /** @description Compares `priority`: `filter[priority][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
                "filter[priority]"?: components["parameters"]["TaskFilterPriority"];
                /** @description Compares `created_at`: `filter[created_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[created_at]"?: components["parameters"]["TaskFilterCreatedAt"];
                /** @description Compares `updated_at`: `filter[updated_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[updated_at]"?: components["parameters"]["TaskFilterUpdatedAt"];
                /** @description Compares `started_at`: `filter[started_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[started_at]"?: components["parameters"]["TaskFilterStartedAt"];
                /** @description Compares `finished_at`: `filter[finished_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[finished_at]"?: components["parameters"]["TaskFilterFinishedAt"];
                /** @description Compares `attempts`: `filter[attempts][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
                "filter[attempts]"?: components["parameters"]["TaskFilterAttempts"];
                /** @description Compares `max_attempts`: `filter[max_attempts][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`; `in` takes a comma-separated list. */
                "filter[max_attempts]"?: components["parameters"]["TaskFilterMaxAttempts"];
                /** @description Compares `available_at`: `filter[available_at][op]=value` with op `eq`, `ne`, `gt`, `gte`, `lt`, `lte`; `in` takes a comma-separated list. */
                "filter[available_at]"?: components["parameters"]["TaskFilterAvailableAt"];
            };
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of tasks. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskCollection"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    createTaskV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskCreate"];
            };
        };
        responses: {
            /** @description The task. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description Path of the new task. */
                    Location: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflictQuotaOrKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getTaskV1: {
        parameters: {
            query?: {
                /** @description Only these fields of each item, comma-separated (`id` is always included). */
                fields?: components["parameters"]["TaskFields"];
            };
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskItem"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    deleteTaskV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            409: components["responses"]["ApiConflict"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    updateTaskV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the `ETag` read before; 412 when the resource has changed since. `*` matches any current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskUpdate"];
            };
        };
        responses: {
            /** @description The task. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflictOrQuota"];
            412: components["responses"]["ApiPreconditionFailed"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listAgentKeys: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the agent's keys. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentKeyCollection"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    createAgentKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentKeyCreate"];
            };
        };
        responses: {
            /** @description The key, with its secret (shown once). */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description Path of the new key. */
                    Location: string;
                    /** @description Always `no-store`: the answer holds a secret. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentKeyCreatedItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiIdempotencyKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getAgentKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The key's id. An id that names no key of this agent answers 404. */
                key_id: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key (never its secret). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentKeyItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    revokeAgentKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The key's id. An id that names no key of this agent answers 404. */
                key_id: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    claimLease: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["LeaseClaim"];
            };
        };
        responses: {
            /** @description The lease of the claimed task. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description Path of the lease. */
                    Location: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaseItem"];
                };
            };
            /** @description No task became available within `wait_seconds`. */
            204: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflictOrKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getLease: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The lease's id. An id that names no lease of this agent answers 404. */
                lease_id: components["parameters"]["LeaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The lease, with its task as it is now. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaseItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    releaseLease: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The lease's id. An id that names no lease of this agent answers 404. */
                lease_id: components["parameters"]["LeaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Released; the task is queued again. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            409: components["responses"]["ApiLeaseConflict"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    updateLease: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The lease's id. An id that names no lease of this agent answers 404. */
                lease_id: components["parameters"]["LeaseId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LeaseUpdate"];
            };
        };
        responses: {
            /** @description The lease after the change, with its task. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaseItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiLeaseConflict"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    appendLeaseLogs: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The lease's id. An id that names no lease of this agent answers 404. */
                lease_id: components["parameters"]["LeaseId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LogAppend"];
            };
        };
        responses: {
            /** @description Every line of the batch was written. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiLeaseConflict"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listTaskAttempts: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the task's attempts. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptCollection"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    retryTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task, `queued` again. */
            202: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            409: components["responses"]["ApiConflict"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listTaskLogs: {
        parameters: {
            query?: {
                /** @description Only lines after this id (`meta.nextCursor` of the previous page, or the last id a stream sent). */
                cursor?: components["schemas"]["EventId"];
                /** @description The most lines a page holds, 1 to 1,000 (default 100). */
                limit?: number;
                /** @description Only the lines of this attempt (its `number`). */
                attempt?: number;
                /** @description Only lines at this level or above. */
                level?: components["schemas"]["LogLevel"];
            };
            header?: {
                /** @description What an EventSource sends when it reconnects: the id of the last line it received, as `cursor` (which wins when both are sent). */
                "Last-Event-ID"?: components["schemas"]["EventId"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The task's id. An id that names no task of this agent answers 404. */
                task_id: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of log lines (`application/json`), or the live stream (`text/event-stream`). */
            200: {
                headers: {
                    /** @description `private, no-cache` on a page; `no-store` on a stream. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LogLineCollection"];
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    createTaskBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskBatchCreate"];
            };
        };
        responses: {
            /** @description What happened to each task, in the order they were named (or taken). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskBatchItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listSchedules: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of schedules. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleCollection"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleCreate"];
            };
        };
        responses: {
            /** @description The schedule, with its `next_run_at`. */
            201: {
                headers: {
                    /** @description Path of the new schedule. */
                    Location: string;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflictOrKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The schedule's id. An id that names no schedule of this agent answers 404. */
                schedule_id: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The schedule's id. An id that names no schedule of this agent answers 404. */
                schedule_id: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
                /** @description The schedule's id. An id that names no schedule of this agent answers 404. */
                schedule_id: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleUpdate"];
            };
        };
        responses: {
            /** @description The schedule as changed. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getAgentUsage: {
        parameters: {
            query?: {
                /** @description The range's start (rounded down to its bucket); by default 24 hours (hour) or 30 days (day) before `to`. */
                from?: string;
                /** @description The range's end (its bucket included); by default now. */
                to?: string;
                /** @description The bucket size. */
                granularity?: "hour" | "day";
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent's usage in the range. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentUsageItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listAgentWorkers: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent's workers. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkerList"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getAgentStats: {
        parameters: {
            query?: {
                /** @description The period the figures cover. */
                window?: "1h" | "24h";
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The agent's id. An id that names no agent (UUID or not) answers 404. */
                agent_id: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent's figures. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentStatsItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Only this agent's events. An agent the caller cannot see answers 404. */
                agent_id?: string;
                /** @description Only this workspace's; a workspace the caller is not a member of answers 404. */
                workspace_id?: components["parameters"]["WorkspaceIdQuery"];
                /** @description Only events of these types, comma-separated (`task.succeeded,task.failed`). */
                types?: components["schemas"]["EventType"][];
                /** @description Only events after this id (the last id seen, or `meta.nextCursor`). Absent, a page starts at the oldest event kept and a stream with the events committed from then on (`after=0` replays every kept event first). */
                after?: components["schemas"]["EventId"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
            };
            header?: {
                /** @description What an EventSource sends when it reconnects: the id of the last event it received, as `after` (which wins when both are sent). */
                "Last-Event-ID"?: components["schemas"]["EventId"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events (`application/json`), or the live stream (`text/event-stream`). */
            200: {
                headers: {
                    /** @description `private, no-cache` on a page; `no-store` on a stream. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventCollection"];
                    /**
                     * @example retry: 3000
                     *
                     *     id: 42
                     *     event: task.succeeded
                     *     data: {"id":"42","type":"task.succeeded","occurred_at":"2026-01-01T12:00:00.000Z","agent_id":"0190b5a2-1c1e-7b3e-9a55-2f1d3c4b5a69","task_id":"0190b5a2-3d4e-7f10-8a21-6c5b4a392817","data":{"status":"succeeded","previous_status":"running"}}
                     */
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            410: components["responses"]["ApiEventsExpired"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description An HTTP-date; 304 when the representation has not changed since. Ignored with `If-None-Match`, and when it is not a date. */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Last-Modified": components["headers"]["Last-Modified"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserEnvelope"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
                /** @description Only this workspace's; a workspace the caller is not a member of answers 404. */
                workspace_id?: components["parameters"]["WorkspaceIdQuery"];
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhook endpoints. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCollection"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description The endpoint, with its secret (shown once). */
            201: {
                headers: {
                    /** @description Path of the new endpoint. */
                    Location: string;
                    /** @description Always `no-store`: the answer holds a secret. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreatedItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiIdempotencyKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The endpoint's id. An id that names no endpoint the caller manages answers 404. */
                webhook_id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint (never its secret). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The endpoint's id. An id that names no endpoint the caller manages answers 404. */
                webhook_id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The endpoint's id. An id that names no endpoint the caller manages answers 404. */
                webhook_id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookUpdate"];
            };
        };
        responses: {
            /** @description The endpoint as changed. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The endpoint's id. An id that names no endpoint the caller manages answers 404. */
                webhook_id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryCollection"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The endpoint's id. An id that names no endpoint the caller manages answers 404. */
                webhook_id: components["parameters"]["WebhookId"];
                /** @description The delivery's id. An id that names no delivery of this endpoint answers 404. */
                delivery_id: components["parameters"]["WebhookDeliveryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, `pending` with its next attempt due now. */
            202: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            409: components["responses"]["ApiConflict"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listWorkspaces: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of workspaces. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceCollection"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    createWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceCreate"];
            };
        };
        responses: {
            /** @description The workspace, with the caller as its owner. */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description Path of the new workspace. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiIdempotencyKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    deleteWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            409: components["responses"]["ApiConflict"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    updateWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceUpdate"];
            };
        };
        responses: {
            /** @description The workspace as changed. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listWorkspaceMembers: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of members. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceMemberCollection"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    removeWorkspaceMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
                /** @description The member's user id. A user who is not a member answers 404. */
                user_id: components["parameters"]["MemberUserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            409: components["responses"]["ApiConflict"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    updateWorkspaceMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
                /** @description The member's user id. A user who is not a member answers 404. */
                user_id: components["parameters"]["MemberUserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceMemberUpdate"];
            };
        };
        responses: {
            /** @description The member as changed. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceMemberItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflict"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listInvitations: {
        parameters: {
            query?: {
                /** @description `meta.nextCursor` of the previous page. A value that is not one of ours answers 400. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description The most items a page holds: default 20; a larger value than 100 is capped at 100, as the
                 *     specification says. Pages of large items (tasks, posts) hold fewer when the next item would
                 *     take the answer beyond the response budget (`MAX_RESPONSE_BYTES`); `meta.nextCursor` then
                 *     continues after the last item given. Below 1 or not an integer answers 400.
                 */
                limit?: components["parameters"]["CursorLimit"];
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of invitations. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationCollection"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
                /**
                 * @description Makes the create safe to retry: 1 to 255 visible ASCII characters (a fresh UUID per
                 *     create is a good key). Within `IDEMPOTENCY_KEY_TTL_HOURS` (24 h by default), a request
                 *     with the same key from the same principal (the user, API key or agent key; anonymous
                 *     sign-ups: the client address), the same method, the same path with its query and the same
                 *     body gets the first answer again (its status, body, `Location`, `ETag` and
                 *     `Content-Type`), with `Idempotent-Replayed: true`, on any instance. Bodies are compared as
                 *     parsed JSON, after the schema's defaults are applied: the order of keys and the spacing do
                 *     not matter. The same key with another path or body is 422 `IDEMPOTENCY_KEY_REUSED`; while
                 *     the first request is still running, 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`.
                 *     Answers refused before the operation ran (validation, credentials, rate limit) and 5xx
                 *     answers are not kept: the same key can be sent again. A malformed key is a schema
                 *     violation.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationCreate"];
            };
        };
        responses: {
            /** @description The invitation, with its token (shown once). */
            201: {
                headers: {
                    /** @description Path of the new invitation. */
                    Location: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description Always `no-store`: the answer holds a token. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationCreatedItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflictOrKeyInUse"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            422: components["responses"]["ApiIdempotencyKeyReused"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
                /** @description The invitation's id. An id that names no pending invitation of the workspace answers 404. */
                invitation_id: components["parameters"]["InvitationId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invitation. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description The workspace's id. An id that names no workspace the caller is a member of answers 404. */
                workspace_id: components["parameters"]["WorkspaceId"];
                /** @description The invitation's id. An id that names no pending invitation of the workspace answers 404. */
                invitation_id: components["parameters"]["InvitationId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationAccept"];
            };
        };
        responses: {
            /** @description The workspace joined, with the caller's role. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceItem"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            408: components["responses"]["ApiRequestTimeout"];
            409: components["responses"]["ApiConflict"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    logIn: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    /** @description The session cookie, and the device cookie. */
                    "Set-Cookie"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenEnvelope"];
                };
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            408: components["responses"]["ApiRequestTimeout"];
            413: components["responses"]["ApiPayloadTooLarge"];
            415: components["responses"]["ApiUnsupportedMediaType"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    logOut: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    /** @description Expires the session cookie. */
                    "Set-Cookie"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            403: components["responses"]["ApiForbidden"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    logOutEverywhere: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every session ended. */
            204: {
                headers: {
                    /** @description Expires the session cookie. */
                    "Set-Cookie"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    startOAuthSignIn: {
        parameters: {
            query?: {
                /** @description Where to land once signed in; a path of this service such as `/agents?status=idle`, never another origin. Default `/`. */
                returnTo?: string;
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description A configured provider's id (`OAUTH_PROVIDERS`); any other value answers 404. */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider's authorization endpoint, or to `/login?error=oauth_failed`. */
            302: {
                headers: {
                    /** @description The authorization request URL, or the login page. */
                    Location?: string;
                    /** @description `oauth_state` and `oauth_flow` (only when going to the provider). */
                    "Set-Cookie"?: string;
                    /** @description `no-store`. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    completeOAuthSignIn: {
        parameters: {
            query?: {
                /** @description The authorization code (success). */
                code?: unknown;
                /** @description The state of the authorization request, echoed. */
                state?: unknown;
                /** @description The provider's issuer (RFC 9207), checked when present. */
                iss?: unknown;
                /** @description The provider's error code (failure), e.g. `access_denied`. */
                error?: unknown;
                /** @description The provider's error text (failure). */
                error_description?: unknown;
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description A configured provider's id; any other value answers 404. */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in or linked (to `returnTo`), cancelled (`/login?cancelled=true`, `/?link=cancelled`) or failed (`/login?error=oauth_failed`, `/?link=failed`). */
            302: {
                headers: {
                    /** @description A path of this service. */
                    Location?: string;
                    /** @description Clears `oauth_state` and `oauth_flow`; sets `agent_fleet_session` on success. */
                    "Set-Cookie"?: string;
                    /** @description `no-store`. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    listMyConnections: {
        parameters: {
            query?: never;
            header?: {
                /** @description Revalidation: the `ETag`s held (or `*`); 304 without a body when one still matches (weak comparison). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's connections, oldest link first. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthConnectionList"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            412: components["responses"]["ApiPreconditionFailed"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    linkMyConnection: {
        parameters: {
            query?: {
                /** @description Where to land once linked; a path of this service, never another origin. Default `/`. */
                returnTo?: string;
            };
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description A configured provider's id (`OAUTH_PROVIDERS`); any other value answers 404. */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where to send the browser (asked with `Accept: application/json`). */
            200: {
                headers: {
                    /** @description `oauth_state` and `oauth_flow` (only when going to the provider). */
                    "Set-Cookie"?: string;
                    /** @description `no-store`. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthLinkStart"];
                };
            };
            /** @description To the provider's authorization endpoint, or to `/?link=failed&reason=<reason>`. */
            303: {
                headers: {
                    /** @description The authorization request URL, or the home page. */
                    Location?: string;
                    /** @description `oauth_state` and `oauth_flow` (only when going to the provider). */
                    "Set-Cookie"?: string;
                    /** @description `no-store`. */
                    "Cache-Control"?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    unlinkMyConnection: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path: {
                /** @description A configured provider's id (`OAUTH_PROVIDERS`); any other value answers 404. */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlinked. */
            204: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ApiValidationError"];
            401: components["responses"]["ApiUnauthorized"];
            403: components["responses"]["ApiForbidden"];
            404: components["responses"]["ApiNotFound"];
            409: components["responses"]["ApiConflict"];
            417: components["responses"]["ApiExpectationFailed"];
            429: components["responses"]["ApiRateLimited"];
            431: components["responses"]["ApiHeadersTooLarge"];
            500: components["responses"]["ApiInternalError"];
            503: components["responses"]["ApiServiceUnavailable"];
        };
    };
    getLoginPage: {
        parameters: {
            query?: {
                /** @description `true` after the user cancelled at the provider. */
                cancelled?: string;
                /** @description `oauth_failed` after a failed third-party sign-in. */
                error?: string;
                /** @description With `error=oauth_failed`: `account_exists` (sign in with the password, then link the provider), `email_not_verified`, `missing_email` or `invalid_claims`; other values are ignored. */
                reason?: string;
                /** @description A path of this service to land on after signing in (default `/`); checked once normalised (`/.//host` is refused), anything else becomes `/`. */
                returnTo?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getSignUpPage: {
        parameters: {
            query?: {
                /** @description A path of this service to land on after signing up (default `/`), checked as on `/login`. */
                returnTo?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getHomePage: {
        parameters: {
            query?: {
                /** @description `cancelled` or `failed` after a link flow (with `reason`); the page says so. */
                link?: string;
                /** @description With `link=failed`: why (`account_conflict`, `already_linked`, `link_session_mismatch`, `invalid_claims`...); unknown values get a generic message. */
                reason?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not signed in. */
            302: {
                headers: {
                    /** @description `/login` */
                    Location?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: {
                /** @description Minor version of the interface (default `1.0`, the only one so far). The version that applied is echoed in the `api-version` response header; an unsupported value answers 400. */
                "api-version"?: components["parameters"]["ApiVersion"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve traffic. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description Draining, or the database is down; take this instance out of rotation. */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getSwaggerUi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getSwaggerUiAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's name. */
                file: components["parameters"]["StaticFile"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["StaticFile"];
            400: components["responses"]["RequestRefused"];
            404: components["responses"]["NotFound"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getRedoc: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getClientReadme: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getRedocAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's name. */
                file: components["parameters"]["StaticFile"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["StaticFile"];
            400: components["responses"]["RequestRefused"];
            404: components["responses"]["NotFound"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getPageAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's name. */
                file: components["parameters"]["StaticFile"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["HashedFile"];
            400: components["responses"]["RequestRefused"];
            404: components["responses"]["NotFound"];
            417: components["responses"]["ExpectationFailed"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getFavicon: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The icon; cached for a day. */
            200: {
                headers: {
                    /** @description `public, max-age=86400`. */
                    "Cache-Control"?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "image/x-icon": string;
                };
            };
            400: components["responses"]["RequestRefused"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    /** @description Always `no-store`. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["RequestRefused"];
            401: components["responses"]["Unauthorized"];
            /** @description No `METRICS_TOKEN` is configured, so this listener does not serve metrics. */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "not_found",
                     *       "message": "Not Found",
                     *       "detail": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        error?: "not_found";
                    };
                };
            };
            417: components["responses"]["ExpectationFailed"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    receiveFleetEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id; the same on every attempt of its delivery. */
                "webhook-id": components["schemas"]["EventId"];
                /** @description When this attempt was signed, in Unix seconds. */
                "webhook-timestamp": string;
                /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the endpoint's secret. */
                "webhook-signature": string;
                /** @description The sender, `agent-fleet-webhooks/<version>`. */
                "User-Agent": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"];
            };
        };
        responses: {
            /** @description The event was received; any 2xx acknowledges it, and its body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not received; the delivery is tried again later, as above. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
type WithRequired<T, K extends keyof T> = T & {
    [P in K]-?: T[P];
};
