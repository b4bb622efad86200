// biome-ignore-all lint/suspicious/noTemplateCurlyInString: generated sources hold their own template literals
import { type Block, cap } from './block.js';

/** Java (a JDBC service class): ordinary blocks, then blocks with a planted problem. */
export const JAVA_BLOCKS: Block[] = [
  (n, i) => `    public Optional<${cap(n)}> find${cap(n)}${i}(long id) {
        try (PreparedStatement statement = connection.prepareStatement("SELECT * FROM ${n}s WHERE id = ?")) {
            statement.setLong(1, id);
            try (ResultSet rs = statement.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(map${cap(n)}(rs));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot load ${n} " + id, e);
        }
    }

`,
  (n, i) => `    public List<${cap(n)}> active${cap(n)}s${i}(List<${cap(n)}> items) {
        List<${cap(n)}> out = new ArrayList<>();
        for (${cap(n)} item : items) {
            if (item.isActive() && item.getAmount() > 0) {
                out.add(item);
            }
        }
        out.sort(Comparator.comparing(${cap(n)}::getName));
        return out;
    }

`,
  (n, i) => `    private static String label${cap(n)}${i}(${cap(n)} value) {
        StringBuilder builder = new StringBuilder();
        builder.append(value.getName());
        if (value.getCode() != null) {
            builder.append(" (").append(value.getCode()).append(')');
        }
        return builder.toString();
    }

`,
];

export const JAVA_PROBLEMS: Block[] = [
  (n, i) => `    public ResultSet search${cap(n)}${i}(Statement statement, String name) throws SQLException {
        return statement.executeQuery("SELECT * FROM ${n}s WHERE name = '" + name + "'");
    }

`,
  (n, i) => `    public Process run${cap(n)}${i}(String command) throws IOException {
        return Runtime.getRuntime().exec(command);
    }

`,
  (n, i) => `    public byte[] digest${cap(n)}${i}(byte[] data) throws Exception {
        return MessageDigest.getInstance("MD5").digest(data);
    }

`,
];
