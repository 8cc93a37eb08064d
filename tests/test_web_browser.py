"""The web page in a real browser: Debian's headless chromium driven by selenium against
``alfabeta serve``'s app on uvicorn. A chess game played by clicking squares, with the engine's
reply and its thinking lines; a Connect Four game played to the end; a finished match opened
and one of its games stepped through; the tree, evaluator and benchmark pages. Each page is
saved as a screenshot in the test's temporary folder."""

import shutil
import socket
import threading
import time

import pytest
import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from alfabeta.arena import Match, Player
from alfabeta.cli import main
from alfabeta.web.app import create_app

pytestmark = pytest.mark.slow

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def server(catalog_module, tmp_path_factory):
    """The app on a free loopback port, with a results database holding one finished match."""
    db = tmp_path_factory.mktemp("browser") / "results.sqlite"
    Match(
        "connect-four",
        Player("alphabeta(depth=2)", name="two"),
        Player("alphabeta(depth=1)", name="one"),
        games=2,
    ).run(db=str(db))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        create_app(catalog_module, str(db)), host="127.0.0.1", port=port, log_level="warning"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def catalog_module():
    from alfabeta import load_catalog

    return load_catalog(autoload=False)


@pytest.fixture
def browser():
    assert BROWSER and DRIVER, "the browser tests need Debian's chromium and chromium-driver"
    options = Options()
    options.binary_location = BROWSER
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1100"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def wait(driver, condition, seconds=30):
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition(d))


def fill(driver, selector, value):
    field = driver.find_element(By.CSS_SELECTOR, selector)
    field.clear()
    field.send_keys(value)


def start_game(driver, url, game, searcher, depth, human="first", evaluator=""):
    driver.get(url)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#games option"))
    fill(driver, "#game", game)
    fill(driver, "#searcher", searcher)
    fill(driver, "#evaluator", evaluator)
    fill(driver, "#depth", str(depth))
    driver.find_element(By.CSS_SELECTOR, f"#human option[value='{human}']").click()
    driver.find_element(By.ID, "new-game").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))


def square(driver, token):
    return driver.find_element(By.CSS_SELECTOR, f'#board .cell[data-token="{token}"]')


def moves_played(driver):
    return len(driver.find_elements(By.CSS_SELECTOR, "#movelist li"))


def test_a_chess_move_by_clicking_gets_the_engines_reply_and_its_thinking(
    server, browser, tmp_path
):
    start_game(browser, server, "chess", "alphabeta(iterative=on, tt=on)", 4, evaluator="standard")
    square(browser, "e2").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.target"))
    # the event stream opens with the state already drawn, at any moment: drawing it again must
    # keep the selection (it did not, and the click on e4 below then hit a discarded square)
    browser.execute_script("render({...game})")
    targets = {
        c.get_attribute("data-token")
        for c in browser.find_elements(By.CSS_SELECTOR, "#board .cell.target")
    }
    assert targets == {"e3", "e4"}  # legal-move highlighting
    clicked = time.monotonic()
    square(browser, "e4").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#thinking tbody tr"))
    first_info = time.monotonic() - clicked
    wait(
        browser,
        lambda d: moves_played(d) == 2 and "Your move" in d.find_element(By.ID, "status").text,
    )
    notation = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#movelist li")]
    rows = browser.find_elements(By.CSS_SELECTOR, "#thinking tbody tr")
    assert notation[0] == "e4" and len(rows) >= 4  # depths 1-4 and the result
    assert rows[0].find_elements(By.TAG_NAME, "td")[0].text == "1"
    assert browser.find_element(By.ID, "fen").get_attribute("value").split()[1] == "w"
    browser.save_screenshot(str(tmp_path / "play-chess.png"))
    print(f"click to first info line: {first_info * 1000:.0f} ms")
    browser.find_element(By.ID, "undo").click()
    wait(browser, lambda d: moves_played(d) == 0)


def test_a_connect_four_game_played_to_the_end(server, browser, tmp_path):
    start_game(browser, server, "connect-four", "alphabeta", 1)
    for _ in range(30):
        status = browser.find_element(By.ID, "status").text
        if "Game over" in status:
            break
        before = moves_played(browser)
        legal = [
            b.get_attribute("data-move")
            for b in browser.find_elements(By.CSS_SELECTOR, "#legal button")
        ]
        square(browser, legal[0]).click()
        wait(
            browser,
            lambda d, before=before: (
                moves_played(d) >= before + 2 or "Game over" in d.find_element(By.ID, "status").text
            ),
        )
        wait(browser, lambda d: "thinking" not in d.find_element(By.ID, "status").text)
    assert "Game over" in browser.find_element(By.ID, "status").text
    assert browser.find_elements(By.CSS_SELECTOR, "#legal button") == []
    browser.save_screenshot(str(tmp_path / "play-connect-four.png"))


def test_a_finished_match_is_opened_and_a_game_stepped_through(server, browser, tmp_path):
    browser.get(server)
    browser.find_element(By.CSS_SELECTOR, "nav .tab[data-tab='watch']").click()
    run = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#runs tbody tr"))[0]
    assert "two, one" in run.text and "finished" in run.text
    run.click()
    wait(browser, lambda d: "Score of two vs one" in d.find_element(By.ID, "run-summary").text)
    browser.find_element(By.CSS_SELECTOR, "#run-games tbody tr").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#replay-board svg"))
    assert browser.find_element(By.ID, "replay-ply").text.startswith("ply 0 of")
    for _ in range(3):
        browser.find_element(By.ID, "replay-next").click()
    assert browser.find_element(By.ID, "replay-ply").text.startswith("ply 3 of")
    discs = browser.find_elements(By.CSS_SELECTOR, "#replay-board .disc-x, #replay-board .disc-o")
    assert len(discs) == 3
    browser.save_screenshot(str(tmp_path / "watch.png"))


def test_the_tree_evaluator_and_benchmark_pages(server, browser, tmp_path):
    browser.get(server)
    browser.find_element(By.CSS_SELECTOR, "nav .tab[data-tab='tree']").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#preset option"))
    browser.find_element(By.ID, "compare").click()
    figures = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#tree-results figure"))
    assert len(figures) == 4 and "value 8" in figures[0].text
    assert browser.find_elements(By.CSS_SELECTOR, "#tree-results .node.cut")
    browser.save_screenshot(str(tmp_path / "tree.png"))
    browser.find_element(By.CSS_SELECTOR, "nav .tab[data-tab='explain']").click()
    browser.find_element(By.ID, "explain-go").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#explain-trajectory svg polyline"))
    assert "emotion" in browser.find_element(By.ID, "explain-score").text
    browser.save_screenshot(str(tmp_path / "evaluator.png"))
    bench = tmp_path / "bench.jsonl"
    assert (
        main(["bench", "connect-four", "--depth", "1-4", "--min-time", "0", "--json", str(bench)])
        == 0
    )
    browser.find_element(By.CSS_SELECTOR, "nav .tab[data-tab='bench']").click()
    browser.find_element(By.ID, "bench-file").send_keys(str(bench))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#bench-chart svg polyline"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#bench-table tr")
    assert len(rows) > 4  # a header and a row per position and depth
    browser.save_screenshot(str(tmp_path / "benchmarks.png"))
