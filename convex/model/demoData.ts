/**
 * Demo marketplace created by `seed:init({demo: true})` on a database without customers
 * (`npm run seed:demo`, and `npm start` unless `--no-demo`). Never part of a production deploy.
 *
 * Demo logins (all real password accounts, same password):
 * - customers:     customer@demo.np, customer2@demo.np, customer3@demo.np  (Customer login)
 * - professionals: professional@demo.np (Electrician, Nepalgunj) and every DEMO_PROFESSIONALS email
 *                  (Professional login)
 * - password:      demo-password-1
 * Their phone numbers are verified (seed.ts demoMarketplace), as a verified professional's must be.
 * Admins are not demo accounts: the first-start admin's password is printed once by seed:init.
 */
import type { CitySlug, SpecialtySlug } from "../validators";

export const DEMO_PASSWORD = "demo-password-1";
export const DEMO_EMAIL_DOMAIN = "demo.np";

export type DemoCustomer = {
  email: string;
  name: string;
  phone: string;
  address: string;
  zipCode: string;
};
export type DemoProfessional = DemoCustomer & { specialty: SpecialtySlug; city: CitySlug };

export const DEMO_CUSTOMERS: DemoCustomer[] = [
  {
    email: "customer@demo.np",
    name: "Sita Sharma",
    phone: "9848012345",
    address: "Ward 4, Tribhuvan Chowk, Nepalgunj",
    zipCode: "21900",
  },
  {
    email: "customer2@demo.np",
    name: "Bikash Shrestha",
    phone: "9851023456",
    address: "Baneshwor-10, Kathmandu",
    zipCode: "44600",
  },
  {
    email: "customer3@demo.np",
    name: "Anita Gurung",
    phone: "9856034567",
    address: "Lakeside-6, Pokhara",
    zipCode: "33700",
  },
];

/** Three per city; together they cover all 14 specialties. */
export const DEMO_PROFESSIONALS: DemoProfessional[] = [
  {
    email: "professional@demo.np",
    name: "Ram Bahadur Thapa",
    specialty: "electrician",
    city: "nepalgunj",
    phone: "9858011111",
    address: "Dhamboji, Nepalgunj",
    zipCode: "21900",
  },
  {
    email: "plumber.nepalgunj@demo.np",
    name: "Dipak Chaudhary",
    specialty: "plumber",
    city: "nepalgunj",
    phone: "9858022222",
    address: "Surkhet Road, Nepalgunj",
    zipCode: "21900",
  },
  {
    email: "ac-fridge.nepalgunj@demo.np",
    name: "Rajesh Yadav",
    specialty: "ac-fridge",
    city: "nepalgunj",
    phone: "9858033333",
    address: "Birendra Chowk, Nepalgunj",
    zipCode: "21900",
  },
  {
    email: "electrician.kathmandu@demo.np",
    name: "Gopal Shrestha",
    specialty: "electrician",
    city: "kathmandu",
    phone: "9841044444",
    address: "Koteshwor-32, Kathmandu",
    zipCode: "44600",
  },
  {
    email: "plumber.kathmandu@demo.np",
    name: "Suman Tamang",
    specialty: "plumber",
    city: "kathmandu",
    phone: "9841055555",
    address: "Chabahil-7, Kathmandu",
    zipCode: "44600",
  },
  {
    email: "cctv.kathmandu@demo.np",
    name: "Nabin Rai",
    specialty: "cctv",
    city: "kathmandu",
    phone: "9841066666",
    address: "Kalanki-14, Kathmandu",
    zipCode: "44600",
  },
  {
    email: "painter.pokhara@demo.np",
    name: "Sunil Gurung",
    specialty: "painter",
    city: "pokhara",
    phone: "9846077777",
    address: "Chipledhunga, Pokhara",
    zipCode: "33700",
  },
  {
    email: "carpenter.pokhara@demo.np",
    name: "Krishna Magar",
    specialty: "carpenter",
    city: "pokhara",
    phone: "9846088888",
    address: "Bagar, Pokhara",
    zipCode: "33700",
  },
  {
    email: "water-purifier.pokhara@demo.np",
    name: "Prakash Bhandari",
    specialty: "water-purifier",
    city: "pokhara",
    phone: "9846099999",
    address: "Srijana Chowk, Pokhara",
    zipCode: "33700",
  },
  {
    email: "mason.dhangadi@demo.np",
    name: "Mohan Bista",
    specialty: "mason",
    city: "dhangadi",
    phone: "9848111222",
    address: "Hasanpur, Dhangadi",
    zipCode: "10900",
  },
  {
    email: "solar.dhangadi@demo.np",
    name: "Dinesh Joshi",
    specialty: "solar-technician",
    city: "dhangadi",
    phone: "9848222333",
    address: "Chauraha, Dhangadi",
    zipCode: "10900",
  },
  {
    email: "tile-marble.dhangadi@demo.np",
    name: "Santosh Thakuri",
    specialty: "tile-marble",
    city: "dhangadi",
    phone: "9848333444",
    address: "Campus Road, Dhangadi",
    zipCode: "10900",
  },
  {
    email: "home-appliance.surkhet@demo.np",
    name: "Kamal Oli",
    specialty: "home-appliance",
    city: "surkhet",
    phone: "9858444555",
    address: "Birendranagar-6, Surkhet",
    zipCode: "21700",
  },
  {
    email: "laundry.surkhet@demo.np",
    name: "Bishnu Karki",
    specialty: "laundry",
    city: "surkhet",
    phone: "9858555666",
    address: "Birendranagar-3, Surkhet",
    zipCode: "21700",
  },
  {
    email: "jyotish.surkhet@demo.np",
    name: "Hari Prasad Adhikari",
    specialty: "jyotish",
    city: "surkhet",
    phone: "9858666777",
    address: "Latikoili, Surkhet",
    zipCode: "21700",
  },
  {
    email: "aluminium.mahendranagar@demo.np",
    name: "Bikram Saud",
    specialty: "aluminium-upvc",
    city: "mahendranagar",
    phone: "9848777888",
    address: "Bhimdatta-4, Mahendranagar",
    zipCode: "10400",
  },
  {
    email: "electrician.mahendranagar@demo.np",
    name: "Pawan Khadka",
    specialty: "electrician",
    city: "mahendranagar",
    phone: "9848888999",
    address: "Bhimdatta-2, Mahendranagar",
    zipCode: "10400",
  },
  {
    email: "carpenter.mahendranagar@demo.np",
    name: "Arjun Poudel",
    specialty: "carpenter",
    city: "mahendranagar",
    phone: "9848999000",
    address: "Bhimdatta-9, Mahendranagar",
    zipCode: "10400",
  },
];

export const STATE_OF_CITY: Record<CitySlug, string> = {
  nepalgunj: "Lumbini",
  kathmandu: "Bagmati",
  pokhara: "Gandaki",
  dhangadi: "Sudurpashchim",
  surkhet: "Karnali",
  mahendranagar: "Sudurpashchim",
};

/** Settings key holding the demo professionals' ids, so the demo-positions cron can keep them on the map. */
export const DEMO_PROFESSIONALS_KEY = "demoProfessionalIds";

// ---- Small valid PNGs for demo photos and documents (no image files in the bundle) ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function u32(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function chunk(type: string, data: number[]): number[] {
  const typed = new Uint8Array([...type].map((c) => c.charCodeAt(0)).concat(data));
  return [...u32(data.length), ...typed, ...u32(crc32(typed))];
}

/** A size×size single-colour RGB PNG (zlib "stored" blocks, so no compressor is needed). */
export function solidPng(rgb: [number, number, number], size = 16): Uint8Array {
  const raw: number[] = [];
  for (let y = 0; y < size; y++) {
    raw.push(0); // filter: none
    for (let x = 0; x < size; x++) raw.push(...rgb);
  }
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  // One stored block holds up to 65535 bytes; 16×16 RGB is 784.
  const len = raw.length;
  const zlib = [
    0x78,
    0x01,
    0x01,
    len & 0xff,
    len >>> 8,
    ~len & 0xff,
    (~len >>> 8) & 0xff,
    ...raw,
    ...u32(((b << 16) | a) >>> 0),
  ];
  const header = [...u32(size), ...u32(size), 8, 2, 0, 0, 0];
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk("IHDR", header),
    ...chunk("IDAT", zlib),
    ...chunk("IEND", []),
  ]);
}

/** A demo professional's home point: spread on a spiral 0.6–2.5 km around the city centre. */
export function demoHome(
  index: number,
  centre: { lat: number; lng: number },
): { lat: number; lng: number } {
  const angle = index * 2.39996; // golden angle, so neighbours do not overlap
  const radius = 0.006 + (index % 6) * 0.0035;
  return { lat: centre.lat + radius * Math.sin(angle), lng: centre.lng + radius * Math.cos(angle) };
}
