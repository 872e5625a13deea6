import { useState } from "react";
import { useHydrated } from "~/lib/hydrated";
import { Icon } from "../Icon";

/**
 * A YouTube video as a click-to-load card (as Mastodon shows one): nothing is asked of YouTube
 * (no frame, no thumbnail) until the reader chooses to play it; then the privacy-enhanced embed
 * takes the card's place and starts. Without JavaScript the card is a plain link to the video.
 */
export function Video({ id }: { id: string }) {
  const hydrated = useHydrated();
  const [playing, setPlaying] = useState(false);
  if (!id) return null;
  const watch = `https://www.youtube.com/watch?v=${encodeURIComponent(id)}`;
  if (playing) {
    return (
      <div className="video">
        <iframe
          src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}?autoplay=1`}
          title="YouTube video"
          allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
          width={560}
          height={315}
        />
      </div>
    );
  }
  const face = (
    <>
      <span className="video-play" aria-hidden="true">
        <Icon name="play" size={28} filled />
      </span>
      <span className="video-text">
        <strong>YouTube video</strong>
        <small>{hydrated ? "Plays here; loads from YouTube when you press play" : "Opens on youtube.com"}</small>
      </span>
    </>
  );
  return (
    <div className="video video-card">
      {hydrated ? (
        <button type="button" onClick={() => setPlaying(true)} aria-label="Play YouTube video">
          {face}
        </button>
      ) : (
        <a href={watch} rel="noopener nofollow" target="_blank" aria-label="Watch on YouTube">
          {face}
        </a>
      )}
    </div>
  );
}
