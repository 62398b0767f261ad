"""Table columns as wide as their content: nothing clipped, a long rule says how to read it."""

import pandas as pd
import streamlit as st

from dashboard import tables


def test_every_column_is_as_wide_as_its_longest_text_or_header():
    frame = pd.DataFrame({"labelset": ["{a}", "{relaxing-calm, quiet-still, sad-lonely}"],
                          "fitness": [0.123456, 0.5], "n": [3, 12345]},
                         index=pd.Index([7, 12], name="rule_id"))
    config = tables.fit_columns(frame, {"fitness": st.column_config.NumberColumn(format="%.3f")})
    width = {name: column["width"] for name, column in config.items()}
    assert width["labelset"] >= tables.CHAR_PX * 40  # the longest labelset, whole
    assert width["fitness"] >= tables.CHAR_PX * len("fitness") and width["fitness"] < 120
    assert width["_index"] >= tables.CHAR_PX * len("rule_id")
    assert config["fitness"]["type_config"]["format"] == "%.3f"  # the page's config is kept
    assert not any(column.get("help") for column in config.values())


def test_a_text_too_long_for_any_column_is_capped_and_says_how_to_read_it():
    rule = "IF " + " AND ".join(f"w{j:04d} = 1" for j in range(60)) + " THEN {a}"
    frame = pd.DataFrame({"rule": [rule], "kept": [True]})
    config = tables.fit_columns(frame, {"kept": st.column_config.CheckboxColumn("kept"),
                                        "rule": st.column_config.TextColumn("rule")},  # help None
                                index=False)
    assert config["rule"]["width"] == tables.MAX_PX
    assert tables.CAPPED_HELP in config["rule"]["help"]
    assert config["kept"]["width"] == tables.BAR_PX and "_index" not in config


def test_a_table_kept_within_the_page_narrows_its_widest_column_only():
    rule = "IF " + " AND ".join(f"Mean_Acc1298_Mean_Mem40_{j}" for j in range(3)) + " THEN {a}"
    frame = pd.DataFrame({"rule": [rule], "fitness": [0.5], "numerosity": [3]})
    free = tables.fit_columns(frame, index=False)
    kept = tables.fit_columns(frame, index=False, within=tables.PAGE_PX)
    assert sum(column["width"] for column in free.values()) > tables.PAGE_PX  # it would scroll
    assert sum(column["width"] for column in kept.values()) <= tables.PAGE_PX
    assert kept["fitness"] == free["fitness"] and kept["numerosity"] == free["numerosity"]
    assert tables.CAPPED_HELP in kept["rule"]["help"]
    # a selectable grid's checkbox column takes its share (the Microscope's [M] scrolled by it)
    chosen = tables.fit_columns(frame, index=False, within=tables.PAGE_PX, selectable=True)
    assert sum(column["width"] for column in chosen.values()) <= tables.PAGE_PX - tables.SELECT_PX
    short = frame.assign(rule="IF x = 1 THEN {a}")
    assert tables.fit_columns(short, index=False, within=tables.PAGE_PX) == tables.fit_columns(
        short, index=False)  # a table that fits is left as it is


def test_a_grid_is_tall_enough_for_every_row_unless_capped():
    eleven = tables.height_for(11)  # a comparison's eleven learners, the best last
    assert eleven == tables.FRAME_PX + 11 * tables.ROW_PX
    assert tables.height_for(11, cap=420) == 420 < eleven  # a long table scrolls within its cap
    assert tables.height_for(0) == tables.height_for(1)  # an empty grid still shows its header


def test_two_long_text_columns_share_the_room_the_numbers_leave():
    """A labelset and a rule text, both wider than the page: cut to one width, side by side,
    rather than the widest alone cut to nothing while the other keeps its 600 px."""
    labelset = "{" + ", ".join(f"Class{j}" for j in range(1, 12)) + "}"
    rule = "IF " + " AND ".join(f"Mean_Acc1298_Mean_Mem40_{j} <= 0.25" for j in range(3))
    frame = pd.DataFrame({"labelset": [labelset], "experience": [86], "rule": [rule]})
    free = tables.fit_columns(frame, index=False)
    kept = tables.fit_columns(frame, index=False, within=tables.PAGE_PX)
    assert free["rule"]["width"] > free["labelset"]["width"] > tables.PAGE_PX // 2
    assert kept["labelset"]["width"] == kept["rule"]["width"] >= tables.MIN_PX
    assert sum(column["width"] for column in kept.values()) <= tables.PAGE_PX
    assert kept["experience"] == free["experience"]
    assert all(tables.CAPPED_HELP in kept[name]["help"] for name in ("labelset", "rule"))
