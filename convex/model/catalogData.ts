/**
 * The service catalogue seeded by `seed:init`: the spec's 13 categories (in the spec's order) plus
 * Jyotish, a specialty of spec §3 that the landing search offers but the services grid does not show.
 * Prices are integer NPR per visit; city prices derive from a base price (see `cityPrices`).
 */
import type { CitySlug } from "../validators";

export type CategoryData = {
  slug: string;
  name: string;
  description: string;
  cities: CitySlug[];
  /** Shown on the services grid (the spec's 13); unlisted categories still resolve in search. */
  listed: boolean;
  /** Extra spellings seen in the spec (routes, labels) beyond those in SPECIALTIES. */
  aliases: string[];
  services: ServiceData[];
};

export type ServiceData = {
  name: string;
  description: string;
  serviceWarranty: string;
  /** Price in the smaller cities; Kathmandu and Pokhara cost more (CITY_PRICE_FACTOR). */
  basePrice: number;
  cities?: CitySlug[];
};

const CARD_CITIES: CitySlug[] = ["nepalgunj", "surkhet", "kathmandu"];
const ALL_CITIES: CitySlug[] = [
  "nepalgunj",
  "kathmandu",
  "pokhara",
  "dhangadi",
  "surkhet",
  "mahendranagar",
];

/** Labour and travel cost more in the valley and in Pokhara. */
const CITY_PRICE_FACTOR: Record<CitySlug, number> = {
  kathmandu: 1.3,
  pokhara: 1.15,
  nepalgunj: 1,
  dhangadi: 1,
  surkhet: 0.95,
  mahendranagar: 0.95,
};

/** Prices rounded to Rs. 50, as local price lists are. */
export function cityPrices(service: ServiceData): { name: CitySlug; price: number }[] {
  return (service.cities ?? ALL_CITIES).map((name) => ({
    name,
    price: Math.round((service.basePrice * CITY_PRICE_FACTOR[name]) / 50) * 50,
  }));
}

export const CATALOG: CategoryData[] = [
  {
    slug: "electrical",
    name: "Electrician",
    description: "Wiring, installation & electrical maintenance",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Electrical"],
    services: [
      {
        name: "House Wiring",
        description:
          "Complete concealed or open wiring for a room, with MCB distribution board and earthing.",
        serviceWarranty: "90 days",
        basePrice: 3500,
      },
      {
        name: "Fan Installation",
        description:
          "Ceiling or wall fan fitting with regulator, including hook check and balancing.",
        serviceWarranty: "30 days",
        basePrice: 500,
      },
      {
        name: "Inverter Setup",
        description:
          "Inverter and battery installation with changeover wiring for lights and fans during load-shedding.",
        serviceWarranty: "60 days",
        basePrice: 1500,
      },
      {
        name: "Switch & Socket Repair",
        description:
          "Replace burnt or loose switches, sockets and plugs; fault finding on one circuit.",
        serviceWarranty: "30 days",
        basePrice: 400,
      },
      {
        name: "MCB & Meter Board Repair",
        description: "Trip diagnosis, MCB or RCCB replacement and tidy-up of the meter board.",
        serviceWarranty: "60 days",
        basePrice: 1200,
      },
      {
        name: "Light Fitting",
        description: "LED panel, tube light, chandelier or outdoor light installation.",
        serviceWarranty: "30 days",
        basePrice: 450,
      },
    ],
  },
  {
    slug: "laundry",
    name: "Laundry",
    description: "Washing, dry cleaning & ironing with pickup",
    cities: CARD_CITIES,
    listed: true,
    aliases: [],
    services: [
      {
        name: "Wash & Fold (per 5 kg)",
        description:
          "Machine wash, dry and fold of everyday clothes, picked up and returned within 48 hours.",
        serviceWarranty: "Re-wash if not satisfied",
        basePrice: 500,
      },
      {
        name: "Dry Cleaning - Suit",
        description: "Two or three piece suit dry cleaned and steam pressed.",
        serviceWarranty: "Re-clean if not satisfied",
        basePrice: 600,
      },
      {
        name: "Saree & Lehenga Dry Cleaning",
        description:
          "Careful dry cleaning of silk and embroidered sarees, lehengas and daura suruwal.",
        serviceWarranty: "Re-clean if not satisfied",
        basePrice: 700,
      },
      {
        name: "Steam Ironing (per 10 pieces)",
        description: "Steam pressing of shirts, trousers and kurtas.",
        serviceWarranty: "Re-press if not satisfied",
        basePrice: 300,
      },
      {
        name: "Blanket & Sirak Wash",
        description: "Washing and drying of blankets, sirak and quilts.",
        serviceWarranty: "Re-wash if not satisfied",
        basePrice: 800,
      },
    ],
  },
  {
    slug: "carpentry",
    name: "Carpentry",
    description: "Furniture making, repair & wood fittings",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Carpenter"],
    services: [
      {
        name: "Door Repair & Fitting",
        description: "Fix sagging or jammed doors, replace hinges, locks and handles.",
        serviceWarranty: "60 days",
        basePrice: 800,
      },
      {
        name: "Furniture Assembly",
        description: "Assembly of beds, wardrobes, tables and flat-pack furniture.",
        serviceWarranty: "30 days",
        basePrice: 1000,
      },
      {
        name: "Modular Kitchen Repair",
        description: "Cabinet shutters, drawer channels and hinges repaired or replaced.",
        serviceWarranty: "60 days",
        basePrice: 1500,
      },
      {
        name: "Bed & Sofa Repair",
        description: "Repair of broken frames, legs and joints of beds and sofas.",
        serviceWarranty: "60 days",
        basePrice: 1200,
      },
      {
        name: "Window Frame Repair",
        description: "Wooden window frames and shutters repaired, planed and refitted.",
        serviceWarranty: "60 days",
        basePrice: 900,
      },
    ],
  },
  {
    slug: "plumbing",
    name: "Plumber",
    description: "Pipes, taps, tanks & bathroom fittings",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Plumbing"],
    services: [
      {
        name: "Tap & Mixer Repair",
        description: "Leaking tap, mixer or shower repaired or replaced.",
        serviceWarranty: "30 days",
        basePrice: 400,
      },
      {
        name: "Pipe Leakage Repair",
        description: "Locate and fix leaking GI, PPR or PVC pipes.",
        serviceWarranty: "60 days",
        basePrice: 800,
      },
      {
        name: "Water Tank Cleaning",
        description: "Draining, scrubbing and disinfecting a roof tank up to 1000 litres.",
        serviceWarranty: "7 days",
        basePrice: 1200,
      },
      {
        name: "Toilet & Commode Installation",
        description: "Western or squat toilet fitting with flush tank and connections.",
        serviceWarranty: "90 days",
        basePrice: 2000,
      },
      {
        name: "Water Pump Installation",
        description: "Motor pump fitting with pipeline and automatic float switch.",
        serviceWarranty: "90 days",
        basePrice: 1800,
      },
      {
        name: "Drain Blockage Clearing",
        description: "Kitchen, bathroom or floor drain cleared with rods or pressure.",
        serviceWarranty: "15 days",
        basePrice: 700,
      },
    ],
  },
  {
    slug: "ac-fridge",
    name: "AC-Fridge",
    description: "Air conditioner & refrigerator service and repair",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["AC Fridge", "AC & Fridge"],
    services: [
      {
        name: "AC General Service",
        description:
          "Filter, coil and drain cleaning of a split or window AC with performance check.",
        serviceWarranty: "30 days",
        basePrice: 1500,
      },
      {
        name: "AC Installation",
        description: "Split AC mounting with copper piping up to 3 m, vacuuming and test run.",
        serviceWarranty: "90 days",
        basePrice: 3500,
      },
      {
        name: "AC Gas Refill",
        description: "Leak check and refrigerant top-up for split or window AC.",
        serviceWarranty: "60 days",
        basePrice: 3000,
      },
      {
        name: "Fridge Repair",
        description:
          "Cooling problems, thermostat, relay or door gasket repair for single and double door fridges.",
        serviceWarranty: "60 days",
        basePrice: 1200,
      },
      {
        name: "Fridge Gas Charging",
        description: "Leak repair and refrigerant charging for a refrigerator.",
        serviceWarranty: "90 days",
        basePrice: 2500,
      },
    ],
  },
  {
    slug: "painting",
    name: "Painter",
    description: "Interior, exterior & waterproof painting",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Painting"],
    services: [
      {
        name: "Interior Wall Painting (per room)",
        description:
          "Putty touch-up, primer and two coats of emulsion for one room up to 12x12 ft.",
        serviceWarranty: "1 year",
        basePrice: 8000,
      },
      {
        name: "Exterior Painting (per 100 sq ft)",
        description: "Weatherproof exterior emulsion with surface cleaning and primer.",
        serviceWarranty: "1 year",
        basePrice: 2500,
      },
      {
        name: "Waterproofing (per 100 sq ft)",
        description: "Roof or wall waterproof coating against monsoon seepage.",
        serviceWarranty: "2 years",
        basePrice: 3500,
      },
      {
        name: "Wood Polish & Enamel",
        description: "Polish or enamel paint for doors, windows and furniture.",
        serviceWarranty: "6 months",
        basePrice: 2000,
      },
    ],
  },
  {
    slug: "cctv",
    name: "CCTV Camera Fitting",
    description: "CCTV cameras, DVR setup & mobile viewing",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["CCTV", "CCTV Camera", "CCTV camera fitting"],
    services: [
      {
        name: "CCTV Camera Installation (per camera)",
        description: "Mounting, cabling and connection of one camera to an existing DVR or NVR.",
        serviceWarranty: "90 days",
        basePrice: 1000,
      },
      {
        name: "DVR/NVR Setup",
        description: "Recorder installation, hard disk setup and recording schedule.",
        serviceWarranty: "90 days",
        basePrice: 1500,
      },
      {
        name: "Mobile Viewing Setup",
        description: "Remote viewing on your phone configured and tested.",
        serviceWarranty: "30 days",
        basePrice: 500,
      },
      {
        name: "CCTV Repair & Maintenance",
        description: "Fault finding on cameras, cables, adaptors and recorders.",
        serviceWarranty: "30 days",
        basePrice: 800,
      },
    ],
  },
  {
    slug: "tile-marble",
    name: "Tile-Marble Fitting",
    description: "Tile and marble fitting for floors, walls & roofs",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Tile-Marbal", "services-tile-Marbal", "Tile Marble", "Tile & Marble"],
    // Spec: every tile/marble item is priced 0 (custom quote after a visit).
    services: [
      {
        name: "Tile Fitting Wall",
        description: "Wall tiling for bathrooms and kitchens; quoted after measuring the area.",
        serviceWarranty: "6 months",
        basePrice: 0,
      },
      {
        name: "Tile Fitting Floor",
        description: "Floor tiling with levelling; quoted after measuring the area.",
        serviceWarranty: "6 months",
        basePrice: 0,
      },
      {
        name: "Tile Fitting Roof",
        description: "Roof and terrace tiling with slope for drainage; quoted after a site visit.",
        serviceWarranty: "6 months",
        basePrice: 0,
      },
      {
        name: "Marble Fitting Floor",
        description:
          "Marble flooring with grinding and polishing; quoted after measuring the area.",
        serviceWarranty: "1 year",
        basePrice: 0,
      },
      {
        name: "Marble Fitting Wall",
        description: "Marble cladding for walls and staircases; quoted after a site visit.",
        serviceWarranty: "1 year",
        basePrice: 0,
      },
    ],
  },
  {
    slug: "aluminium-upvc",
    name: "Aluminium-UPVC Decorator",
    description: "Aluminium & UPVC windows, doors and partitions",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Aluminium UPVC", "Aluminium-UPVC"],
    services: [
      {
        name: "UPVC Window Installation (per window)",
        description: "Measured, fabricated and fitted UPVC sliding or casement window.",
        serviceWarranty: "1 year",
        basePrice: 9000,
      },
      {
        name: "Aluminium Partition (per 10 sq ft)",
        description: "Aluminium frame office or shop partition with glass or board.",
        serviceWarranty: "1 year",
        basePrice: 4500,
      },
      {
        name: "Sliding Door Repair",
        description:
          "Rollers, locks and rubber beading replaced on aluminium or UPVC sliding doors.",
        serviceWarranty: "60 days",
        basePrice: 1000,
      },
      {
        name: "Mosquito Net Fitting",
        description: "Fixed or sliding mosquito net frames fitted to windows.",
        serviceWarranty: "90 days",
        basePrice: 1200,
      },
    ],
  },
  {
    slug: "home-appliance",
    name: "Home Appliance Service",
    description: "Washing machine, TV, microwave & more repaired",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Home Appliance", "Home-Appliance", "Home Applicance"],
    services: [
      {
        name: "Washing Machine Repair",
        description: "Drum, motor, drain and control faults of top and front load machines.",
        serviceWarranty: "60 days",
        basePrice: 1200,
      },
      {
        name: "LED TV Repair",
        description: "Power, display and sound faults diagnosed; parts charged separately.",
        serviceWarranty: "60 days",
        basePrice: 1000,
      },
      {
        name: "Microwave Oven Repair",
        description: "Heating, turntable and panel faults repaired.",
        serviceWarranty: "30 days",
        basePrice: 800,
      },
      {
        name: "Geyser Installation & Repair",
        description: "Electric water heater fitting, thermostat and element replacement.",
        serviceWarranty: "60 days",
        basePrice: 1000,
      },
      {
        name: "Induction & Rice Cooker Repair",
        description: "Induction cooktop and rice cooker faults repaired.",
        serviceWarranty: "30 days",
        basePrice: 500,
      },
    ],
  },
  {
    slug: "water-purifier",
    name: "Water Purifier Service",
    description: "RO & UV purifier installation, filters and repair",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Water Purifier", "Water-Purifier"],
    services: [
      {
        name: "RO Purifier Installation",
        description: "Wall mounting and plumbing of an RO or UV purifier with TDS check.",
        serviceWarranty: "90 days",
        basePrice: 800,
      },
      {
        name: "Filter Replacement",
        description: "Sediment, carbon and membrane filters replaced (parts extra).",
        serviceWarranty: "30 days",
        basePrice: 600,
      },
      {
        name: "Purifier Repair",
        description: "Leakage, pump, solenoid valve and low-flow problems repaired.",
        serviceWarranty: "60 days",
        basePrice: 700,
      },
    ],
  },
  {
    slug: "mason",
    name: "Mason",
    description: "Brickwork, plastering & small construction",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Manson", "Masonry"],
    services: [
      {
        name: "Brick Wall Construction (per 100 sq ft)",
        description: "Brick masonry in cement mortar, materials supplied by the customer.",
        serviceWarranty: "1 year",
        basePrice: 4500,
      },
      {
        name: "Wall Plastering (per 100 sq ft)",
        description: "Cement plaster on brick walls with curing.",
        serviceWarranty: "6 months",
        basePrice: 2500,
      },
      {
        name: "Crack Repair",
        description: "Wall and ceiling cracks opened, filled and finished.",
        serviceWarranty: "6 months",
        basePrice: 1500,
      },
      {
        name: "Compound Wall Repair",
        description: "Damaged boundary wall sections rebuilt and plastered.",
        serviceWarranty: "1 year",
        basePrice: 3000,
      },
    ],
  },
  {
    slug: "solar",
    name: "Solar Technician",
    description: "Solar panels, water heaters & battery systems",
    cities: CARD_CITIES,
    listed: true,
    aliases: ["Solar", "Solar-Technician"],
    services: [
      {
        name: "Solar Panel Installation (per panel)",
        description: "Roof mounting structure, panel fitting and wiring to the charge controller.",
        serviceWarranty: "1 year",
        basePrice: 2000,
      },
      {
        name: "Solar Water Heater Installation",
        description: "Evacuated tube solar heater mounting with plumbing connections.",
        serviceWarranty: "1 year",
        basePrice: 4000,
      },
      {
        name: "Solar Water Heater Repair",
        description: "Broken tubes, leaks and valve problems repaired.",
        serviceWarranty: "60 days",
        basePrice: 1200,
      },
      {
        name: "Solar Battery & Controller Service",
        description: "Battery check, terminal cleaning and charge controller settings.",
        serviceWarranty: "30 days",
        basePrice: 800,
      },
    ],
  },
  {
    slug: "jyotish",
    name: "Jyotish",
    description: "Kundali, muhurat & puja consultation",
    cities: CARD_CITIES,
    listed: false,
    aliases: [],
    services: [
      {
        name: "Kundali Reading",
        description: "Birth chart (kundali) prepared and read with the family.",
        serviceWarranty: "N/A",
        basePrice: 1500,
      },
      {
        name: "Griha Pravesh Muhurat",
        description: "Auspicious date and time for moving into a new house.",
        serviceWarranty: "N/A",
        basePrice: 1000,
      },
      {
        name: "Bibaha Kundali Milan",
        description: "Matching of the bride's and groom's charts before marriage.",
        serviceWarranty: "N/A",
        basePrice: 2000,
      },
    ],
  },
];
