// biome-ignore-all lint/suspicious/noTemplateCurlyInString: generated sources hold their own template literals
import { type Block, cap } from './block.js';

/** Ruby (a Rails controller): ordinary blocks, then blocks with a planted problem. */
export const RUBY_BLOCKS: Block[] = [
  (n, i) => `  def load_${n}_${i}(id)
    record = ${cap(n)}.find_by(id: id)
    return nil if record.nil?

    record.attributes.merge("loaded_at" => Time.now.utc)
  end

`,
  (n, i) => `  def totals_${n}_${i}(items)
    totals = Hash.new(0)
    items.each do |item|
      next if item.hidden?

      totals[item.status] += item.amount
    end
    totals
  end

`,
  (n, i) => `  def label_${n}_${i}(${n})
    parts = [${n}.name, ${n}.code].compact
    parts.empty? ? "unnamed" : parts.join(" / ")
  end

`,
];

export const RUBY_PROBLEMS: Block[] = [
  (n, i) => `  def search_${n}_${i}(name)
    ${cap(n)}.where("name = '#{params[:name]}'")
  end

`,
  (n, i) => `  def run_${n}_${i}(cmd)
    system("convert #{params[:file]} out.png")
  end

`,
  (n, i) => `  def restore_${n}_${i}(blob)
    Marshal.load(blob)
  end

`,
];
