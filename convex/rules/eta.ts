/**
 * Distance and estimated arrival while the professional is on the way: the customer's map shows
 * them, and they update with every position the professional's phone sends.
 *
 * How: offline there is no road router, so the road distance is the straight-line (haversine)
 * distance from the professional's live position to the booking's pin times ROAD_FACTOR (lanes in
 * Nepal's cities wind: roads run about 1.4 times the distance as the crow flies), and the time is
 * that road distance at TRAVEL_SPEED_KMH (a motorbike's average through city traffic), rounded up
 * to a whole minute, at least one.
 */
import { distanceMetres, type Pin } from "./pin";

export const ROAD_FACTOR = 1.4;
export const TRAVEL_SPEED_KMH = 20;

export type Eta = { roadMetres: number; minutes: number };

export function eta(from: Pin, to: Pin): Eta {
  const roadMetres = distanceMetres(from, to) * ROAD_FACTOR;
  const minutes = Math.max(1, Math.ceil(roadMetres / ((TRAVEL_SPEED_KMH * 1000) / 60)));
  return { roadMetres, minutes };
}
