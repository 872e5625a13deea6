// Spec 3: the client-side record of the signed-in user, kept in localStorage under "notex".
export const RECORD_KEY = "notex";

export interface UserRecord {
  userID: number;
  email: string;
  username: string;
  fullname: string;
  avatar: string;
  confirmed: boolean;
  jslabel: string;
  jstats: Record<string, number>;
}

export const emptyRecord = (): UserRecord => ({
  userID: 0,
  email: "",
  username: "",
  fullname: "",
  avatar: "",
  confirmed: false,
  jslabel: "",
  jstats: {},
});

export interface ServerUser {
  id: number;
  email?: string;
  username: string;
  fullname: string;
  avatar: string;
  confirmed: boolean;
  jslabel?: string;
  /** The API's parsed counts (the spec's jstats, as an object). */
  stats?: object;
}

export function fromServer(u: ServerUser): UserRecord {
  return {
    userID: u.id,
    email: u.email ?? "",
    username: u.username,
    fullname: u.fullname,
    avatar: u.avatar ?? "",
    confirmed: !!u.confirmed,
    jslabel: u.jslabel ?? "",
    jstats: { ...(u.stats as Record<string, number>) },
  };
}

export const isAuthenticated = (r: UserRecord) => r.userID > 0 && r.username !== "";

export function readRecord(): UserRecord {
  try {
    const raw = localStorage.getItem(RECORD_KEY);
    return raw ? { ...emptyRecord(), ...JSON.parse(raw) } : emptyRecord();
  } catch {
    return emptyRecord();
  }
}

export function writeRecord(r: UserRecord) {
  try {
    if (isAuthenticated(r)) localStorage.setItem(RECORD_KEY, JSON.stringify(r));
    else localStorage.removeItem(RECORD_KEY);
  } catch {}
}

export const clearRecord = () => writeRecord(emptyRecord());
