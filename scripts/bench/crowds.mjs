// The bench's crowds, in bulk SQL straight into files (minutes at 1M, not hours; generate.mjs
// loads them after the network): the popular note and user against their fresh twins, a quiet
// reader, and the authors with 10,000 followers on other servers against plain ones.
import { PASSWORD_HASH, T0 } from "./network.mjs";
import { sqlValue as q } from "./sql-files.mjs";

/**
 * Popularity: a crowd of POP people who all like one old note and follow one user, plus a "quiet"
 * reader who follows 3 accounts with one old note each (the worst case of a time-index feed walk).
 * Popular and fresh targets are alike but for the crowd, so their writes compare one to one. Ids
 * after the network's NOTES notes and USERS people.
 */
export function popularSql(NOTES, USERS, POP) {
  const popularNote = NOTES + 1;
  const freshNote = NOTES + 2;
  const popularUser = 4;
  const freshUser = 5;
  const crowd0 = USERS + 10; // crowd ids after USERS + 10; quiet = USERS + 1, its 3 accounts + 2..4
  const quiet = USERS + 1;
  const popSql = `
  INSERT INTO users (id, username, email, fullname, password_hash, confirmed, created_at) VALUES
    (${quiet}, 'quiet', 'quiet@bench.test', 'Quiet Reader', ${q(PASSWORD_HASH)}, 1, ${T0}),
    (${quiet + 1}, 'quiet1', 'quiet1@bench.test', 'Quiet One', NULL, 1, ${T0}),
    (${quiet + 2}, 'quiet2', 'quiet2@bench.test', 'Quiet Two', NULL, 1, ${T0}),
    (${quiet + 3}, 'quiet3', 'quiet3@bench.test', 'Quiet Three', NULL, 1, ${T0});
  INSERT INTO notes (id, user_id, kind, label, content, txt, created_at, noted_at) VALUES
    (${popularNote}, 3, 0, 'idea', '<p>Popular.</p>', 'Popular.', ${T0 - 10}, ${T0 - 10}),
    (${freshNote}, 3, 0, 'idea', '<p>Fresh.</p>', 'Fresh.', ${T0 - 9}, ${T0 - 9}),
    (${NOTES + 3}, ${quiet + 1}, 0, 'note', '<p>Quiet 1.</p>', 'Quiet 1.', ${T0 - 8}, ${T0 - 8}),
    (${NOTES + 4}, ${quiet + 2}, 0, 'note', '<p>Quiet 2.</p>', 'Quiet 2.', ${T0 - 7}, ${T0 - 7}),
    (${NOTES + 5}, ${quiet + 3}, 0, 'note', '<p>Quiet 3.</p>', 'Quiet 3.', ${T0 - 6}, ${T0 - 6});
  UPDATE users SET note_num = note_num + 2 WHERE id = 3;
  UPDATE users SET note_num = 1 WHERE id IN (${quiet + 1}, ${quiet + 2}, ${quiet + 3});
  INSERT INTO user_labels (user_id, label, n) VALUES (3, 'idea', 2) ON CONFLICT DO UPDATE SET n = n + 2;
  INSERT INTO user_labels (user_id, label, n) VALUES (${quiet + 1}, 'note', 1), (${quiet + 2}, 'note', 1), (${quiet + 3}, 'note', 1);
  INSERT INTO follows (follower_id, followee_id, created_at) VALUES (${quiet}, ${quiet + 1}, ${T0}), (${quiet}, ${quiet + 2}, ${T0}), (${quiet}, ${quiet + 3}, ${T0});
  UPDATE users SET following_num = 3 WHERE id = ${quiet};
  UPDATE users SET follower_num = 1 WHERE id IN (${quiet + 1}, ${quiet + 2}, ${quiet + 3});
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${POP})
    INSERT INTO users (id, username, email, fullname, confirmed, following_num, created_at)
    SELECT ${crowd0} + n, 'crowd' || n, 'crowd' || n || '@bench.test', 'Crowd ' || n, 1, 1, ${T0} FROM s;
  INSERT INTO likes (user_id, kind, target_id, created_at) SELECT id, 'note', ${popularNote}, ${T0} FROM users WHERE id > ${crowd0};
  INSERT INTO follows (follower_id, followee_id, created_at) SELECT id, ${popularUser}, ${T0} FROM users WHERE id > ${crowd0};
  UPDATE notes SET likenum = ${POP} WHERE id = ${popularNote};
  UPDATE users SET follower_num = follower_num + ${POP} WHERE id = ${popularUser};
  `;
  return { sql: popSql, popularNote, freshNote, popularUser, freshUser, crowdEnd: crowd0 + POP };
}

/**
 * Federation (README "Federation"): FED_AUTHORS people each followed by the same FED_FOLLOWERS
 * people elsewhere, 20 on each of FED_SERVERS servers (one shared inbox each, under the reserved
 * .invalid domain: nothing is ever reached), and as many plain authors with no one elsewhere, so
 * posting as one or the other compares one to one. Several of each because a person may write 60
 * times in 10 s (RL_WRITE): the bench's requests take turns over them. Ids after `after`.
 */
export function federationSql(after) {
  const FED_AUTHORS = 30;
  const FED_FOLLOWERS = 10_000;
  const FED_SERVERS = 500;
  const fed0 = after + 10;
  const remote0 = fed0 + 2 * FED_AUTHORS + 10;
  const fedSql = `
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${FED_AUTHORS})
    INSERT INTO users (id, username, email, fullname, password_hash, confirmed, created_at)
    SELECT ${fed0} + n, 'fedauthor' || n, 'fedauthor' || n || '@bench.test', 'Fed Author ' || n, ${q(PASSWORD_HASH)}, 1, ${T0} FROM s
    UNION ALL
    SELECT ${fed0 + FED_AUTHORS} + n, 'plainauthor' || n, 'plainauthor' || n || '@bench.test', 'Plain Author ' || n, ${q(PASSWORD_HASH)}, 1, ${T0} FROM s;
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${FED_FOLLOWERS})
    INSERT INTO users (id, username, email, fullname, confirmed, following_num, created_at)
    SELECT ${remote0} + n, 'r' || n || '@s' || (n % ${FED_SERVERS}) || '.bench.invalid',
      'https://s' || (n % ${FED_SERVERS}) || '.bench.invalid/users/r' || n, 'Remote ' || n, 1, ${FED_AUTHORS}, ${T0} FROM s;
  INSERT INTO remote_actors (user_id, uri, host, inbox, shared_inbox, url, fetched_at)
    SELECT id, email, substr(username, instr(username, '@') + 1), email || '/inbox',
      'https://' || substr(username, instr(username, '@') + 1) || '/inbox', email, ${T0}
    FROM users WHERE id > ${remote0};
  INSERT INTO follows (follower_id, followee_id, created_at, remote)
    SELECT r.id, a.id, ${T0}, 1 FROM users r, users a WHERE r.id > ${remote0} AND a.id > ${fed0} AND a.id <= ${fed0 + FED_AUTHORS};
  UPDATE users SET follower_num = ${FED_FOLLOWERS} WHERE id > ${fed0} AND id <= ${fed0 + FED_AUTHORS};
  `;
  return { sql: fedSql, fedAuthors: FED_AUTHORS, fedFollowers: FED_FOLLOWERS, fedServers: FED_SERVERS };
}
