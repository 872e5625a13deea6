import type { UserJson } from "../../../worker/features/users/users.service";
import { Avatar } from "../Avatar";

// Owned by the social feature: cover, stats with follower/following lists, Follow/Unfollow, Edit Profile.
export function ProfileHeader({ user }: { user: UserJson }) {
  return (
    <header className="profile-head">
      <Avatar name={user.fullname} src={user.avatar} size={88} />
      <h1>{user.fullname}</h1>
      <p className="muted">@{user.username}</p>
    </header>
  );
}
