import { useEffect, useState } from "react";

// One lazy module per flag: only the rider's own flag is fetched, from this site.
const FLAGS = import.meta.glob("/node_modules/flag-icons/flags/4x3/*.svg", { query: "?url", import: "default" });

export function CountryFlag({ code, name, height = 20, id }) {
  const [src, setSrc] = useState("");
  useEffect(() => {
    let live = true;
    const load = FLAGS[`/node_modules/flag-icons/flags/4x3/${(code || "").toLowerCase()}.svg`];
    setSrc("");
    if (load) load().then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [code]);
  if (!src) return null;
  return (
    <img
      id={id}
      src={src}
      alt={name ? `Flag of ${name}` : ""}
      title={name}
      height={height}
      width={Math.round((height * 4) / 3)}
      style={{ borderRadius: 3, boxShadow: "0 0 0 1px rgba(0,0,0,.12)", objectFit: "cover" }}
    />
  );
}
