// biome-ignore-all lint/suspicious/noTemplateCurlyInString: generated sources hold their own template literals
import { type Block, cap } from './block.js';

/** Go: ordinary blocks, then blocks with a planted problem. */
export const GO_BLOCKS: Block[] = [
  (n, i) => `func Load${cap(n)}${i}(ctx context.Context, db *sql.DB, id int64) (*${cap(n)}, error) {
	row := db.QueryRowContext(ctx, "SELECT id, name FROM ${n}s WHERE id = $1", id)
	var out ${cap(n)}
	if err := row.Scan(&out.ID, &out.Name); err != nil {
		return nil, fmt.Errorf("load ${n} %d: %w", id, err)
	}
	return &out, nil
}

`,
  (n, i) => `type ${cap(n)}Store${i} struct {
	mu    sync.Mutex
	items map[string]${cap(n)}
}

func (s *${cap(n)}Store${i}) Put(key string, value ${cap(n)}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.items == nil {
		s.items = make(map[string]${cap(n)})
	}
	s.items[key] = value
}

func (s *${cap(n)}Store${i}) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.items)
}

`,
  (n, i) => `func Sum${cap(n)}s${i}(items []${cap(n)}) int {
	total := 0
	for _, item := range items {
		if item.Hidden {
			continue
		}
		total += item.Amount
	}
	return total
}

`,
];

export const GO_PROBLEMS: Block[] = [
  (n, i) => `func Find${cap(n)}${i}(db *sql.DB, name string) (*sql.Rows, error) {
	return db.Query("SELECT * FROM ${n}s WHERE name = '" + name + "'")
}

`,
  (n, i) => `func Run${cap(n)}${i}(script string) error {
	return exec.Command("sh", "-c", script).Run()
}

`,
  (n, i) => `func Client${cap(n)}${i}() *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
}

`,
];
