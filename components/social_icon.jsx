import { FaFacebookF, FaInstagram, FaLinkedinIn, FaStrava, FaXTwitter, FaYoutube } from "react-icons/fa6";

// The footer's brand icons (react-icons, Font Awesome 6); the link around it carries the accessible name.
const ICONS = {
  facebook: FaFacebookF,
  twitter: FaXTwitter,
  linkedin: FaLinkedinIn,
  instagram: FaInstagram,
  youtube: FaYoutube,
  strava: FaStrava,
};

export function SocialIcon({ network, size = 18 }) {
  const Icon = ICONS[network];
  return Icon ? <Icon size={size} aria-hidden="true" focusable="false" /> : null;
}
