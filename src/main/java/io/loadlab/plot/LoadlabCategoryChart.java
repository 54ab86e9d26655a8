package io.loadlab.plot;

import org.knowm.xchart.CategoryChart;

/** A bar chart that says what it is when printed (JShell shows every value it holds). */
final class LoadlabCategoryChart extends CategoryChart {

    LoadlabCategoryChart() {
        super(Look.WIDTH, Look.HEIGHT);
    }

    @Override
    public String toString() {
        return Charts.describe(this);
    }
}
