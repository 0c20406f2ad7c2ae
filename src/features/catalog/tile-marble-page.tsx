export default function TileMarblePage() {
  return <main className="mx-auto max-w-6xl p-4"><h1 className="text-2xl font-semibold">Tile and marble</h1></main>;
}
